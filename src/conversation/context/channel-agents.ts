/**
 * Which agent a channel's new threads talk to (DESIGN "Channel agents"): the one bound with
 * `/agent channel use <agent-id>`, else AGENT_ID. Bindings live in the state store, so every
 * replica sees them and they survive restarts (with Redis). Existing threads keep the agent they
 * started with: their ThreadRecord carries it. Binding checks nothing on the service (it has no
 * endpoint to read an agent); the first run tells if the id is wrong.
 */
import type { ChannelBinding, ChannelBindingStore } from './context-ports.js';

/** The agent a channel uses, and whether it comes from a binding or the default. */
export interface ChannelAgent {
  agentId: string;
  /** The service connection of the agent; undefined: the default one. */
  connection?: string | undefined;
  source: 'channel' | 'default';
  binding?: ChannelBinding | undefined;
}

export function createChannelAgents(deps: {
  store: ChannelBindingStore;
  defaultAgentId: string;
  now: () => number;
  /** With OAuth: the installation under way, kept with each binding. */
  installation?: (() => string | undefined) | undefined;
}) {
  const { store, defaultAgentId } = deps;

  /** The agent new threads in `channel` start runs on. */
  async function agentFor(channel: string | undefined): Promise<ChannelAgent> {
    const binding = channel ? await store.getChannelBinding(channel) : undefined;
    return binding
      ? { agentId: binding.agentId, connection: binding.connection, source: 'channel', binding }
      : { agentId: defaultAgentId, source: 'default' };
  }

  /** Binds `channel` to `agentId` (on `connection`, else the default one); returns the agent it used before. */
  async function use(
    channel: string,
    agentId: string,
    userId: string,
    connection?: string,
  ): Promise<ChannelAgent> {
    const before = await agentFor(channel);
    await store.saveChannelBinding(channel, {
      agentId,
      ...(connection !== undefined ? { connection } : {}),
      boundBy: userId,
      boundAt: deps.now(),
      ...(deps.installation?.() !== undefined ? { installation: deps.installation?.() } : {}),
    });
    return before;
  }

  /** Back to the default agent; returns the agent it used before. */
  async function reset(channel: string): Promise<ChannelAgent> {
    const before = await agentFor(channel);
    await store.deleteChannelBinding(channel);
    return before;
  }

  return { agentFor, use, reset, defaultAgentId };
}

export type ChannelAgents = ReturnType<typeof createChannelAgents>;

/** A plausible agent id: what the service puts in a path segment (letters, digits, `-`, `_`, `.`). */
export function isAgentId(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(value);
}
