/** Watched channels (`/agent channel investigate on|off`), kept per installation (tenancy.ts). */
import { type Tenant, tenantName } from '../conversation/tenancy.js';
import type { ChannelWatch, ChannelWatchStore } from './alert-ports.js';

export function createWatchedChannels(deps: { store: ChannelWatchStore; now: () => number }) {
  const { store } = deps;

  /** The watch on `channel` in `tenant`'s installation, if on. */
  async function watchOf(tenant: Tenant, channel: string): Promise<ChannelWatch | undefined> {
    const own = await store.getChannelWatch(tenantName(tenant.key, channel));
    if (own || tenant.key === undefined) return own;
    // A watch kept before installations had names counts for the installation that made it.
    const earlier = await store.getChannelWatch(channel);
    return earlier?.installation === tenant.teamId ? earlier : undefined;
  }

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
    // The watch kept under the channel alone (before installations had names) moves to the new name.
    if (tenant.key !== undefined && before?.installation === tenant.teamId)
      await store.deleteChannelWatch(channel);
    return { wasOn: before !== undefined };
  }

  return { watchOf, set };
}

export type WatchedChannels = ReturnType<typeof createWatchedChannels>;
