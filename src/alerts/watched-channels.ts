/** Watched channels (`/agent channel investigate on|off`), kept per installation (tenancy.ts). */
import { type Tenant, tenantName, tenantRecord } from '../conversation/tenancy.js';
import type { ChannelWatch, ChannelWatchStore } from './alert-ports.js';

export function createWatchedChannels(deps: { store: ChannelWatchStore; now: () => number }) {
  const { store } = deps;

  /** The watch on `channel` in `tenant`'s installation, if on. */
  const watchOf = (tenant: Tenant, channel: string): Promise<ChannelWatch | undefined> =>
    tenantRecord(tenant, channel, (name) => store.getChannelWatch(name));

  /** Turns the watch on or off; returns whether it was on before. */
  async function set(
    tenant: Tenant,
    channel: string,
    on: boolean,
    userId: string,
  ): Promise<{ wasOn: boolean }> {
    const before = await watchOf(tenant, channel);
    const name = tenantName(tenant.key, channel);
    const watch = { by: before?.by ?? userId, at: before?.at ?? deps.now() };
    const installation = tenant.key ? { installation: tenant.teamId } : {};
    if (on) await store.saveChannelWatch(name, { ...watch, ...installation });
    else await store.deleteChannelWatch(name);
    // The watch kept under the channel alone (before installations had names) moves to the new name;
    // read again, as channel-agents does: a shared channel's id is the same in every installation.
    if (tenant.key !== undefined && before?.installation === tenant.teamId) {
      const earlier = await store.getChannelWatch(channel);
      if (earlier?.installation === tenant.teamId) await store.deleteChannelWatch(channel);
    }
    return { wasOn: before !== undefined };
  }

  return { watchOf, set };
}

export type WatchedChannels = ReturnType<typeof createWatchedChannels>;
