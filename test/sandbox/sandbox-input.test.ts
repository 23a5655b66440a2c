import { describe, expect, it } from 'vitest';
import {
  canonicalEmoji,
  FILE_USAGE,
  parseInputLine,
  RATE_USAGE,
  SCHEDULE_USAGE,
} from '../../dev/sandbox/input-line.js';
import { parseSandboxArgs } from '../../dev/sandbox/sandbox-args.js';
import { echoOf } from '../../dev/sandbox/terminal-chat.js';

describe('parseInputLine', () => {
  it.each([
    ['why are errors up?', { kind: 'message', text: 'why are errors up?' }],
    ['  spaced out  ', { kind: 'message', text: 'spaced out' }],
    ['why? [sim steps=5 outcome=error]', { kind: 'message', text: 'why? [sim steps=5 outcome=error]' }],
    ['/var/log is full', { kind: 'message', text: '/var/log is full' }],
    ['I like :+1: a lot', { kind: 'message', text: 'I like :+1: a lot' }],
    ['', { kind: 'empty' }],
    ['   ', { kind: 'empty' }],
    [':+1:', { kind: 'reaction', name: '+1' }],
    [':-1:', { kind: 'reaction', name: '-1' }],
    [':thumbsup:', { kind: 'reaction', name: '+1' }],
    [':ThumbsDown:', { kind: 'reaction', name: '-1' }],
    ['👍', { kind: 'reaction', name: '+1' }],
    ['👎', { kind: 'reaction', name: '-1' }],
    [':white_check_mark:', { kind: 'reaction', name: 'white_check_mark' }],
    [':+1::skin-tone-3:', { kind: 'reaction', name: '+1::skin-tone-3' }],
    ['/agent whoami', { kind: 'command', text: 'whoami' }],
    ['/agent   capacity move 5 from A to B', { kind: 'command', text: 'capacity move 5 from A to B' }],
    ['/agent', { kind: 'command', text: '' }],
    ['/AGENT help', { kind: 'command', text: 'help' }],
    ['/new', { kind: 'new-thread' }],
    ['/alert CPU above 90% on checkout', { kind: 'alert', text: 'CPU above 90% on checkout' }],
    ['/alert', { kind: 'alert', text: 'Error rate above 5% on checkout' }],
    ['/help', { kind: 'help' }],
    ['/shared', { kind: 'toggle-shared' }],
    ['/stop', { kind: 'stop' }],
    ['/Stop now', { kind: 'stop' }],
    ['/Shared ', { kind: 'toggle-shared' }],
    ['/shared with acme', { kind: 'toggle-shared' }],
    ['/share', { kind: 'unknown-command', name: '/share' }],
    ['/home', { kind: 'home' }],
    [
      '/schedule --now what broke overnight?',
      {
        kind: 'schedule',
        question: 'what broke overnight?',
        now: true,
        typed: '/schedule --now what broke overnight?',
      },
    ],
    ['/schedule why?', { kind: 'schedule', question: 'why?', now: false, typed: '/schedule why?' }],
    ['/schedule --now', { kind: 'usage', typed: '/schedule --now', text: SCHEDULE_USAGE }],
    ['/quit', { kind: 'quit' }],
    ['/exit', { kind: 'quit' }],
    ['/frobnicate now', { kind: 'unknown-command', name: '/frobnicate' }],
    ['/rate good', { kind: 'rate', positive: true }],
    ['/rate bad the numbers are wrong', { kind: 'rate', positive: false, comment: 'the numbers are wrong' }],
    ['/rate 👍  nice ', { kind: 'rate', positive: true, comment: 'nice' }],
    ['/rate maybe', { kind: 'usage', typed: '/rate maybe', text: RATE_USAGE }],
    ['/rate', { kind: 'usage', typed: '/rate', text: RATE_USAGE }],
    ['/file app.log', { kind: 'file', path: 'app.log', typed: '/file app.log' }],
    [
      '/file ./logs/app.log  what broke? ',
      {
        kind: 'file',
        path: './logs/app.log',
        question: 'what broke?',
        typed: '/file ./logs/app.log  what broke?',
      },
    ],
    [
      '/file "my notes.txt" why?',
      { kind: 'file', path: 'my notes.txt', question: 'why?', typed: '/file "my notes.txt" why?' },
    ],
    ['/file', { kind: 'usage', typed: '/file', text: FILE_USAGE }],
    ['/files x', { kind: 'unknown-command', name: '/files' }],
  ])('%j', (line, expected) => {
    expect(parseInputLine(line)).toEqual(expected);
  });

  it('names emoji as Slack does', () => {
    expect(canonicalEmoji(':thumbsup:')).toBe('+1');
    expect(canonicalEmoji('heart')).toBe('heart');
  });
});

describe('echoOf', () => {
  it('shows what was typed, as the person', () => {
    expect(echoOf(parseInputLine('hi'))).toBe('you   › hi');
    expect(echoOf(parseInputLine(':thumbsup:'))).toBe('you   › :+1:');
    expect(echoOf(parseInputLine('/agent whoami'))).toBe('you   › /agent whoami');
    expect(echoOf(parseInputLine('/shared'))).toBe('you   › /shared');
    expect(echoOf(parseInputLine('/home'))).toBe('you   › /home');
    expect(echoOf(parseInputLine('/stop'))).toBe('you   › /stop');
    expect(echoOf(parseInputLine('/rate maybe'))).toBe('you   › /rate maybe');
    expect(echoOf(parseInputLine('/file "my notes.txt" why?'))).toBe('you   › /file "my notes.txt" why?');
    expect(echoOf(parseInputLine(''))).toBeUndefined();
  });
});

describe('parseSandboxArgs', () => {
  it('defaults to a quick demo script with logs in a file', () => {
    expect(parseSandboxArgs([])).toEqual({
      ok: true,
      args: {
        steps: 3,
        stepMs: 400,
        verbose: false,
        logLevel: 'info',
        outsiderAudience: 'dm',
        oauth: false,
        help: false,
      },
    });
  });

  it('takes --steps, --step-ms, --verbose and --log-level', () => {
    const parsed = parseSandboxArgs(['--steps', '5', '--step-ms=50', '--verbose']);
    expect(parsed).toEqual({
      ok: true,
      args: {
        steps: 5,
        stepMs: 50,
        verbose: true,
        logLevel: 'debug',
        outsiderAudience: 'dm',
        oauth: false,
        help: false,
      },
    });
    expect(parseSandboxArgs(['--log-level', 'warn'])).toMatchObject({ ok: true, args: { logLevel: 'warn' } });
    expect(parseSandboxArgs(['--oauth'])).toMatchObject({ ok: true, args: { oauth: true } });
    expect(parseSandboxArgs(['--outsider-audience', 'refuse'])).toMatchObject({
      ok: true,
      args: { outsiderAudience: 'refuse' },
    });
  });

  it('takes the bot’s OUTSIDER_AUDIENCE from its environment, the flag first', () => {
    const env = { OUTSIDER_AUDIENCE: 'thread' };
    expect(parseSandboxArgs([], env)).toMatchObject({ ok: true, args: { outsiderAudience: 'thread' } });
    expect(parseSandboxArgs(['--outsider-audience=refuse'], env)).toMatchObject({
      ok: true,
      args: { outsiderAudience: 'refuse' },
    });
    expect(parseSandboxArgs([], { OUTSIDER_AUDIENCE: 'nowhere' })).toEqual({
      ok: false,
      error: 'OUTSIDER_AUDIENCE must be one of dm, thread, refuse',
    });
  });

  it.each([
    [['--steps=-1'], '--steps must be an integer'],
    [['--step-ms', '1.5'], '--step-ms must be an integer'],
    [['--log-level', 'loud'], '--log-level must be one of'],
    [['--outsider-audience', 'channel'], '--outsider-audience must be one of dm, thread, refuse'],
    [['--colour'], "Unknown option '--colour'"],
  ])('refuses %j', (argv, message) => {
    const parsed = parseSandboxArgs(argv);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });
});
