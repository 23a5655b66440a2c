/** Which agent a channel's new threads talk to (DESIGN "Channel agents"): its binding, else AGENT_ID. */
import { type Tenant, tenantName, tenantRecord } from '../tenancy.js';
import type { ChannelBinding, ChannelBindingStore } from './context-ports.js';

/** A channel's agent: a binding's, the default (home installations only), or `unbound` (no service). */
export type ChannelAgent =
  | {
      agentId: string;
      /** The service connection of the agent; undefined: the default one. */
      connection?: string | undefined;
      source: 'channel' | 'default';
      binding?: ChannelBinding | undefined;
    }
  | { source: 'unbound'; agentId?: undefined; connection?: undefined; binding?: undefined };

export function createChannelAgents(deps: {
  store: ChannelBindingStore;
  defaultAgentId: string;
  now: () => number;
}) {
  const { store, defaultAgentId } = deps;

  /** `tenant`'s own binding of a (maybe shared) channel; an unnamed older one counts for its maker only. */
  const bindingOf = (tenant: Tenant, channel: string) =>
    tenantRecord(tenant, channel, (name) => store.getChannelBinding(name));

  /** The agent new threads in `channel` start runs on, in `tenant`'s installation. */
  async function agentFor(tenant: Tenant, channel: string | undefined): Promise<ChannelAgent> {
    const binding = channel ? await bindingOf(tenant, channel) : undefined;
    if (binding)
      return { agentId: binding.agentId, connection: binding.connection, source: 'channel', binding };
    return tenant.home ? { agentId: defaultAgentId, source: 'default' } : { source: 'unbound' };
  }

  /** Binds `channel` to `agentId` (on `connection`, else the default one); returns the agent it used before. */
  function use(tenant: Tenant, channel: string, agentId: string, userId: string, connection?: string) {
    return rebind(tenant, channel, (name) =>
      store.saveChannelBinding(name, {
        agentId,
        ...(connection !== undefined ? { connection } : {}),
        boundBy: userId,
        boundAt: deps.now(),
        ...(tenant.key !== undefined ? { installation: tenant.teamId } : {}),
      }),
    );
  }

  /** Back to the default agent (or none, outside the home installations); returns the agent it used before. */
  function reset(tenant: Tenant, channel: string) {
    return rebind(tenant, channel, (name) => store.deleteChannelBinding(name));
  }

  /** Saves or deletes the binding under the installation's name; drops the one under the channel alone. */
  async function rebind(tenant: Tenant, channel: string, write: (name: string) => Promise<void>) {
    const before = await agentFor(tenant, channel);
    await write(tenantName(tenant.key, channel));
    // The binding kept before installations had names, once replaced or reset.
    if (tenant.key !== undefined && before.binding?.installation === tenant.teamId) {
      const earlier = await store.getChannelBinding(channel);
      if (earlier?.installation === tenant.teamId) await store.deleteChannelBinding(channel);
    }
    return before;
  }

  return { agentFor, use, reset, defaultAgentId };
}

export type ChannelAgents = ReturnType<typeof createChannelAgents>;

/** A turn ready to run `agentId` on the channel agent's connection (alerts, schedules: no thread read). */
export function readyOn<C>(channelAgent: ChannelAgent, agentId: string, context: C) {
  const { connection } = channelAgent;
  return { kind: 'ready', agentId, ...(connection !== undefined ? { connection } : {}), context } as const;
}

/** A plausible agent id: what the service puts in a path segment (letters, digits, `-`, `_`, `.`). */
export function isAgentId(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(value);
}
