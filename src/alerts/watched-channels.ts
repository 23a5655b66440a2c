/**
 * Watched channels (`/agent channel investigate on|off`, DESIGN "Alert investigations"): a new
 * top-level post by another bot or integration in a watched channel is an alert. Kept in the
 * store, so every replica sees it and it survives restarts (with Redis).
 */
import type { ChannelWatch, ChannelWatchStore } from './alert-ports.js';

export function createWatchedChannels(deps: {
  store: ChannelWatchStore;
  now: () => number;
  /** With OAuth: the installation under way, kept with each watch. */
  installation?: (() => string | undefined) | undefined;
}) {
  const { store } = deps;

  /** The watch on `channel`, if on. */
  function watchOf(channel: string): Promise<ChannelWatch | undefined> {
    return store.getChannelWatch(channel);
  }

  /** Turns the watch on or off; returns whether it was on before. */
  async function set(channel: string, on: boolean, userId: string): Promise<{ wasOn: boolean }> {
    const before = await store.getChannelWatch(channel);
    const installation = before?.installation ?? deps.installation?.();
    const watch = { by: before?.by ?? userId, at: before?.at ?? deps.now() };
    if (on) await store.saveChannelWatch(channel, { ...watch, ...(installation ? { installation } : {}) });
    else await store.deleteChannelWatch(channel);
    return { wasOn: before !== undefined };
  }

  return { watchOf, set };
}

export type WatchedChannels = ReturnType<typeof createWatchedChannels>;
