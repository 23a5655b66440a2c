import { describe, expect, it } from 'vitest';
import { parseCommand, parseGb, tokenize, unescapeSlackText } from '../../src/commands/parse-command.js';

describe('tokenize', () => {
  it.each([
    [
      'capacity move 2.5 from "QA Team" to prod',
      ['capacity', 'move', '2.5', 'from', 'QA Team', 'to', 'prod'],
    ],
    ["  a   'b c'  d ", ['a', 'b c', 'd']],
    ['from “QA Team” to ‘Dev Ops’', ['from', 'QA Team', 'to', 'Dev Ops']],
    ['""', ['']],
    ["O'Brien team", ["O'Brien", 'team']],
    ['', []],
  ])('%s', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it('returns undefined for an unterminated quote', () => {
    expect(tokenize('move 1 from "QA Team to prod')).toBeUndefined();
  });
});

describe('parseGb', () => {
  it.each([
    ['2.5', 2.5],
    ['2,5', 2.5],
    ['10GB', 10],
    ['1gb', 1],
    ['.5', 0.5],
    ['0', 0],
    ['-1', -1],
    ['abc', undefined],
    ['1.2.3', undefined],
    [undefined, undefined],
  ])('%s → %s', (token, expected) => {
    expect(parseGb(token)).toBe(expected);
  });
});

it('undoes Slack escapes and mailto links', () => {
  expect(unescapeSlackText('a &amp; b &lt;c&gt; <mailto:x@y.io|x@y.io>')).toBe('a & b <c> x@y.io');
});

describe('parseCommand', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP me', { kind: 'help' }],
    ['frobnicate', { kind: 'help', unknown: 'frobnicate' }],
    ['whoami', { kind: 'whoami' }],
    ['enable', { kind: 'enable' }],
    ['disable agent-7', { kind: 'disable', agentId: 'agent-7' }],
    ['accounts', { kind: 'accounts' }],
    [
      'accounts create "QA Team" admin@example.com',
      { kind: 'accounts-create', name: 'QA Team', email: 'admin@example.com' },
    ],
    [
      'accounts create Ops <mailto:ops@example.com|ops@example.com> 7 2.5',
      { kind: 'accounts-create', name: 'Ops', email: 'ops@example.com', retentionDays: 7, maxDailyGB: 2.5 },
    ],
    [
      'accounts create Big a@b.io 2147483647 2147483647',
      {
        kind: 'accounts-create',
        name: 'Big',
        email: 'a@b.io',
        retentionDays: 2147483647,
        maxDailyGB: 2147483647,
      },
    ],
    [
      'capacity move 2.5 from "QA Team" to prod',
      { kind: 'capacity-move', gb: 2.5, from: 'QA Team', to: 'prod' },
    ],
    ['capacity MOVE 3 FROM 200001 TO 200002', { kind: 'capacity-move', gb: 3, from: '200001', to: '200002' }],
    // Amounts ≤ 0 parse: the capacity move refuses them before any call, with its own sentence.
    ['capacity move 0 from a to b', { kind: 'capacity-move', gb: 0, from: 'a', to: 'b' }],
    ['export search', { kind: 'export', types: ['search'] }],
    ['export Dashboards', { kind: 'export', types: ['dashboard'] }],
    ['export all', { kind: 'export', types: ['search', 'visualization', 'dashboard'] }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['enable a b', 'enable', 'unexpected “b”'],
    ['accounts create OnlyName', 'accounts-create', 'something is missing'],
    ['accounts create Name not-an-email', 'accounts-create', '“not-an-email” is not an email address'],
    ['accounts create Name a@b.io zero', 'accounts-create', 'retention-days must be a whole number'],
    ['accounts create Name a@b.io 0', 'accounts-create', 'retention-days must be a whole number'],
    ['accounts create Name a@b.io 7 -1', 'accounts-create', 'max-daily-GB must be a number'],
    ['accounts create Name a@b.io 7 1 extra', 'accounts-create', 'unexpected “extra”'],
    // The vendor's spec: `format: email` and int32 numbers; the value is named, nothing is sent.
    ['accounts create Name admin@localhost', 'accounts-create', '“admin@localhost” is not an email address'],
    ['accounts create Name "ad min@example.com"', 'accounts-create', '“ad min@example.com” is not an email'],
    [
      'accounts create Name a@b.io 2147483648',
      'accounts-create',
      'retention-days 2147483648 is more than the service accepts (at most 2147483647)',
    ],
    [
      'accounts create Name a@b.io 7 3000000000GB',
      'accounts-create',
      'max-daily-GB 3000000000GB is more than the service accepts (at most 2147483647)',
    ],
    ['accounts delete x', 'accounts-create', 'unknown accounts command “delete”'],
    ['capacity shuffle', 'capacity-move', 'the only capacity command is `move`'],
    ['capacity move lots from a to b', 'capacity-move', '“lots” is not a number of GB'],
    ['capacity move 1 a to b', 'capacity-move', 'write it as `from <account> to <account>`'],
    ['capacity move 1 from QA Team to prod', 'capacity-move', 'write it as'],
    [
      'capacity move 1 from a to QA Team',
      'capacity-move',
      'unexpected “Team” (quote names that have spaces)',
    ],
    ['capacity move 1 from "QA Team to prod', 'capacity-move', 'a quote is not closed'],
    ['export', 'export', 'something is missing'],
    ['export everything', 'export', '“everything” is not search, visualization, dashboard or all'],
    // A `query` type is said to be in the vendor's 2026 spec (issue 29), but the seed's export
    // endpoint takes only these three (the simulator, built from the seed, answers 400): not offered.
    ['export query', 'export', '“query” is not search, visualization, dashboard or all'],
  ])('%j is refused with the usage line', (text, subcommand, problem) => {
    const result = parseCommand(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.subcommand).toBe(subcommand);
    expect(result.problem).toContain(problem);
    expect(result.usage).toMatch(/^\/agent /);
  });
});

describe('/agent alerts webhook', () => {
  it('parses show and rotate, and refuses anything else with its usage', () => {
    expect(parseCommand('alerts webhook')).toEqual({
      ok: true,
      command: { kind: 'alerts-webhook', rotate: false },
    });
    expect(parseCommand('alerts webhook rotate')).toEqual({
      ok: true,
      command: { kind: 'alerts-webhook', rotate: true },
    });
    expect(parseCommand('alerts webhook now')).toMatchObject({ ok: false, subcommand: 'alerts-webhook' });
    expect(parseCommand('alerts')).toMatchObject({ ok: false, subcommand: 'alerts-webhook' });
  });
});
