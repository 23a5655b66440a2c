import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/registry.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';
import { parseError, setup } from './command-harness.js';

describe('/agent enable|disable', () => {
  it.each([
    ['enable', { kind: 'enable' }],
    ['disable agent-7', { kind: 'disable', agentId: 'agent-7' }],
  ])('parses %j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it('refuses a second id with the usage line', () => {
    const result = parseError('enable a b');
    expect(result.subcommand).toBe('enable');
    expect(result.problem).toContain('unexpected “b”');
    expect(result.usage).toMatch(/^\/agent /);
  });

  it('enable without an id uses AGENT_ID, and is audited with the state', async () => {
    const { run, calls, lines } = setup();
    expect(await run('enable')).toEqual({
      kind: 'agent-state',
      agentId: 'agent-default',
      requested: true,
      active: true,
    });
    expect(calls).toEqual(['enable agent-default']);
    expect(lines.some((l) => l.includes('"subcommand":"enable"') && l.includes('"active":true'))).toBe(true);
  });

  it.each([
    [
      'an enabled agent',
      { kind: 'agent-state', agentId: 'a1', requested: true, active: true },
      'Agent `a1` is now *enabled* (the service reports `active: true`).',
    ],
    [
      'a state other than the one asked for',
      { kind: 'agent-state', agentId: 'a1', requested: false, active: true },
      'Asked to disable agent `a1`, but the service reports `active: true`: it is *enabled*.',
    ],
  ] as const)('renders %s', (_name, outcome, expected) => {
    expect(renderCommandOutcome(outcome).text).toBe(expected);
  });
});
