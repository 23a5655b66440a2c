/**
 * Watched channels (`/agent channel investigate on|off`, DESIGN "Alert investigations") as the
 * admins' App Home lists them: with OAuth, the ones the installation's own admins turned on.
 */
export interface WatchedChannels {
  /** Channel ids whose integration posts are investigated. */
  list(): Promise<string[]>;
}

/** The store's watches, as far as App Home reads them. */
export interface WatchRecords {
  listWatchedChannels(): Promise<string[]>;
  getChannelWatch(channel: string): Promise<{ installation?: string | undefined } | undefined>;
}

/** The watches of the installation `view` names (undefined with one workspace: all of them). */
export function installationWatches(deps: {
  store: WatchRecords;
  view: () => string | undefined;
}): WatchedChannels {
  return {
    async list() {
      const channels = await deps.store.listWatchedChannels();
      const watches = await Promise.all(channels.map((channel) => deps.store.getChannelWatch(channel)));
      const view = deps.view();
      return channels.filter((_, index) => watches[index]?.installation === view);
    },
  };
}
