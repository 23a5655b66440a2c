import { describe, expect, it } from 'vitest';
import { createHomeData } from '../../src/home/home-data.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { createMemoryStore } from '../../src/store/index.js';

const HOME = { teamId: 'T1', home: true, key: undefined };

const T = Date.UTC(2026, 10, 25, 12);
const connections = { list: async () => [{ alias: 'default', host: 'h', health: 'ok' as const }] };

function setup(inside: boolean, admin: boolean) {
  const store = createMemoryStore({ clock: () => T });
  const data = createHomeData({
    store,
    inside: {
      check: async () =>
        inside ? { inside: true } : { inside: false, reason: 'other-organisation', refusal: 'external-user' },
    } as never,
    admins: { isAdmin: async () => admin },
    connections,
    defaultAgentId: 'main',
    prompts: [{ title: 't', message: 'm' }],
    now: () => T,
    logger: silentLogger,
  });
  return { store, data };
}

describe('home data', () => {
  it('gives an outsider nothing but the outsider kind', async () => {
    const { store, data } = setup(false, true);
    await store.noteRecentThread(
      'U1',
      { threadKey: 'k', channel: 'C', threadTs: '1.1', status: 'working', updatedAt: T },
      { max: 5, ttlMs: 1_000 },
    );
    expect(await data.forPerson('U1', HOME)).toEqual({ kind: 'outsider' });
  });

  it('gives a member their threads and the prompts, and no admin part', async () => {
    const { store, data } = setup(true, false);
    const thread = {
      threadKey: 'k',
      channel: 'C',
      threadTs: '1.1',
      status: 'working' as const,
      updatedAt: T,
    };
    await store.noteRecentThread('U1', thread, { max: 5, ttlMs: 1_000 });
    expect(await data.forPerson('U1', HOME)).toEqual({
      kind: 'member',
      prompts: [{ title: 't', message: 'm' }],
      threads: [thread],
    });
  });

  it('gives an admin the agents (default, bound, seen), channel agents and the week', async () => {
    const { store, data } = setup(true, true);
    await store.saveChannelBinding('C9', { agentId: 'pay', boundBy: 'U1', boundAt: T });
    await store.noteAgentSeen({ agentId: 'old', active: false, source: 'command', at: T });
    await store.tally('2026-W48', 'runs', 't1', 60_000);
    const home = await data.forPerson('U1', HOME);
    if (home.kind !== 'member' || !home.admin) throw new Error('no admin part');
    expect(
      home.admin.agents.map((agent) => [agent.agentId, agent.isDefault, agent.channels, agent.seen?.active]),
    ).toEqual([
      ['main', true, [], undefined],
      ['pay', false, ['C9'], undefined],
      ['old', false, [], false],
    ]);
    expect(home.admin.channelAgents).toEqual([{ channel: 'C9', agentId: 'pay' }]);
    expect(home.admin.watched).toBeUndefined();
    expect(home.admin.connections).toEqual(await connections.list());
    expect(home.admin.week).toEqual({
      label: '2026-W48',
      runs: 1,
      answers: 0,
      'answered-sessions': 0,
      'rated-sessions': 0,
    });
  });
});
