import { describe, expect, it } from 'vitest';
import { createChannelAgents } from '../../../src/conversation/context/channel-agents.js';
import { createTurnContext } from '../../../src/conversation/context/turn-context.js';
import { createTenancy } from '../../../src/conversation/tenancy.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';

/**
 * DESIGN "One installation, one tenant" and "The home workspaces": a channel's binding belongs to
 * the installation that made it, and outside the home installations an unbound channel has no agent.
 */
const tenancy = createTenancy({ homeTeamIds: ['T0ALPHA'], many: true });
const alpha = tenancy.of({ teamId: 'T0ALPHA' });
const beta = tenancy.of({ teamId: 'T0BETA' });

describe('channel agents per installation', () => {
  it('keeps two installations’ bindings of one shared channel apart', async () => {
    const store = createMemoryStore();
    const agents = createChannelAgents({ store, defaultAgentId: 'main', now: () => 1 });
    expect(await agents.agentFor(beta, 'C0SHARED')).toEqual({ source: 'unbound' });
    await agents.use(beta, 'C0SHARED', 'beta-agent', 'UBEN', 'beta-prod');
    expect(await agents.agentFor(alpha, 'C0SHARED')).toEqual({ agentId: 'main', source: 'default' });
    expect(await agents.agentFor(beta, 'C0SHARED')).toMatchObject({
      agentId: 'beta-agent',
      connection: 'beta-prod',
      source: 'channel',
    });
    await agents.reset(alpha, 'C0SHARED');
    expect((await agents.agentFor(beta, 'C0SHARED')).agentId).toBe('beta-agent');
  });

  it('reads a binding kept before installations had names only for the installation that made it', async () => {
    const store = createMemoryStore();
    await store.saveChannelBinding('C0OLD', {
      agentId: 'old',
      boundBy: 'U',
      boundAt: 1,
      installation: 'T0BETA',
    });
    const agents = createChannelAgents({ store, defaultAgentId: 'main', now: () => 1 });
    expect((await agents.agentFor(beta, 'C0OLD')).agentId).toBe('old');
    expect((await agents.agentFor(alpha, 'C0OLD')).agentId).toBe('main');
    await agents.use(beta, 'C0OLD', 'newer', 'U');
    expect(await store.getChannelBinding('C0OLD')).toBeUndefined();
    expect((await agents.agentFor(beta, 'C0OLD')).agentId).toBe('newer');
    await agents.reset(beta, 'C0OLD');
    expect(await agents.agentFor(beta, 'C0OLD')).toEqual({ source: 'unbound' });
  });

  it('refuses a question outside home in an unbound channel, or in a thread on the default connection', async () => {
    const store = createMemoryStore();
    const context = createTurnContext({
      threads: { read: async () => ({ messages: [], truncated: false }) },
      people: { profile: async () => undefined },
      inside: { check: async () => ({ inside: true }), judgeWorkspace: () => 'inside' },
      channelAgents: createChannelAgents({ store, defaultAgentId: 'main', now: () => 1 }),
      clock: { now: () => 1_800_000_000_000 } as never,
      logger: silentLogger,
      bot: { botUserId: 'UBOT' },
      settings: { maxChars: 8000, alertLookbackMinutes: 60 },
    });
    const ask = (tenant: typeof alpha) => ({
      tenant,
      channel: 'C1',
      threadTs: '1.1',
      sourceTs: '1.1',
      userId: 'U1',
      prompt: 'why?',
    });
    expect(await context.prepare(ask(beta), undefined)).toEqual({
      kind: 'refused',
      refusal: 'unbound-channel',
    });
    expect(await context.prepare(ask(alpha), undefined)).toMatchObject({ kind: 'ready', agentId: 'main' });
    const legacy = {
      threadKey: 'T0BETA:C1:1.1',
      teamId: 'T0BETA',
      channel: 'C1',
      threadTs: '1.1',
      agentId: 'main',
      sessionId: 's1',
      createdAt: 0,
      updatedAt: 0,
    };
    expect(await context.prepare(ask(beta), legacy)).toEqual({ kind: 'refused', refusal: 'unbound-channel' });
  });
});
