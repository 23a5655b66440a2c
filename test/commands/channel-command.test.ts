import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/registry.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';
import { setup } from './command-harness.js';

describe('parsing /agent channel', () => {
  it.each([
    ['channel', { kind: 'channel' }],
    ['CHANNEL', { kind: 'channel' }],
    ['channel use payments-agent', { kind: 'channel-use', agentId: 'payments-agent' }],
    ['channel Use a1b2.c_3', { kind: 'channel-use', agentId: 'a1b2.c_3' }],
    ['channel reset', { kind: 'channel-reset' }],
  ])('"%s"', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['channel use', 'channel-use', 'something is missing'],
    ['channel use a b', 'channel-use', 'unexpected “b”'],
    ['channel use <@U1>', 'channel-use', 'is not an agent id'],
    ['channel reset now', 'channel-reset', 'unexpected “now”'],
    ['channel bind x', 'channel', 'unknown channel command “bind”'],
  ])('refuses "%s" with its usage', (text, subcommand, problem) => {
    const parsed = parseCommand(text);
    expect(parsed).toMatchObject({ ok: false, subcommand });
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });
});

describe('parsing /agent channel use … on <alias>', () => {
  it.each([
    ['channel use payments on eu-prod', { kind: 'channel-use', agentId: 'payments', connection: 'eu-prod' }],
    ['channel use payments ON eu-prod', { kind: 'channel-use', agentId: 'payments', connection: 'eu-prod' }],
    ['channel use payments', { kind: 'channel-use', agentId: 'payments' }],
    ['channel investigate on', { kind: 'channel-investigate', on: true }],
    ['channel answer-all OFF', { kind: 'channel-answer-all', on: false }],
  ])('%s', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['channel use payments on', 'channel-use', /alias after `on` is missing/],
    ['channel use payments at eu', 'channel-use', /unexpected “at”/],
    ['channel use payments on eu extra', 'channel-use', /unexpected “extra”/],
    ['channel investigate maybe', 'channel-investigate', /“maybe” is not `on` or `off`/],
    ['channel answer-all', 'channel-answer-all', /something is missing/],
  ])('%s is refused', (text, subcommand, problem) => {
    const parsed = parseCommand(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.subcommand).toBe(subcommand);
    expect(parsed.problem).toMatch(problem);
  });
});

describe('running /agent channel', () => {
  function setupChannel() {
    const { run, store } = setup();
    return {
      run: (text: string, userId = 'UADMIN', channelId = 'C1') => run(text, userId, channelId),
      store,
    };
  }

  it('binds, shows and resets the channel where it is typed; other channels are untouched', async () => {
    const { run, store } = setupChannel();
    expect(await run('channel use payments')).toEqual({
      kind: 'channel-bound',
      channelId: 'C1',
      agentId: 'payments',
      previousAgentId: 'agent-default',
    });
    expect(await store.getChannelBinding('C1')).toEqual({
      agentId: 'payments',
      boundBy: 'UADMIN',
      boundAt: 42,
    });
    expect(await run('channel', 'UALICE')).toMatchObject({
      agentId: 'payments',
      source: 'channel',
      boundBy: 'UADMIN',
    });
    expect(await run('channel', 'UALICE', 'C2')).toMatchObject({
      agentId: 'agent-default',
      source: 'default',
    });
    expect(await run('channel reset')).toMatchObject({
      kind: 'channel-reset',
      agentId: 'agent-default',
      previousAgentId: 'payments',
    });
    expect(await store.getChannelBinding('C1')).toBeUndefined();
  });

  it('refuses use and reset to non-admins before touching the store', async () => {
    const { run, store } = setupChannel();
    expect(await run('channel use payments', 'UALICE')).toMatchObject({ kind: 'refused' });
    expect(await run('channel reset', 'UALICE')).toMatchObject({ kind: 'refused' });
    expect(await store.getChannelBinding('C1')).toBeUndefined();
  });

  it('renders each outcome as a sentence that names the agents', async () => {
    const { run } = setupChannel();
    const text = (outcome: Awaited<ReturnType<typeof run>>) => renderCommandOutcome(outcome).text;
    expect(text(await run('channel'))).toContain("use the bot's agent `agent-default` (AGENT_ID)");
    expect(text(await run('channel use payments'))).toContain(
      'will use agent `payments` (before: `agent-default`)',
    );
    expect(text(await run('channel'))).toContain('use agent `payments`, set by <@UADMIN>');
    expect(text(await run('channel reset'))).toContain(
      "the bot's agent `agent-default` again (before: `payments`)",
    );
    expect(text(await run('channel', 'UADMIN', ''))).toContain('works in a channel');
  });
});
