import { channelOfName, type Tenant } from '../conversation/tenancy.js';

/**
 * Watched channels (`/agent channel investigate on|off`, DESIGN "Alert investigations") as the
 * admins' App Home lists them: with OAuth, the ones the installation's own admins turned on.
 */
export interface WatchedChannels {
  /** Channel ids whose integration posts are investigated in `tenant`'s installation. */
  list(tenant: Tenant): Promise<string[]>;
}

/** The store's watches, as far as App Home reads them. */
export interface WatchRecords {
  listWatchedChannels(): Promise<string[]>;
  getChannelWatch(channel: string): Promise<{ installation?: string | undefined } | undefined>;
}

/** The watches of `tenant`'s installation (with one workspace: all of them). */
export function installationWatches(deps: { store: WatchRecords }): WatchedChannels {
  return {
    async list(tenant) {
      const names = await deps.store.listWatchedChannels();
      const watches = await Promise.all(names.map((name) => deps.store.getChannelWatch(name)));
      const view = tenant.key === undefined ? undefined : tenant.teamId;
      return names.filter((_, index) => watches[index]?.installation === view).map(channelOfName);
    },
  };
}
