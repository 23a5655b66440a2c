/**
 * App Home (DESIGN "App Home"): published when the person opens the Home tab, and again when their
 * threads change, rate-bounded (republish-throttle.ts). A failure is logged, never shown. `publish`
 * is `views.publish` (https://docs.slack.dev/reference/methods/views.publish).
 */
import { type AdminCheckOptions, createAdminCheck } from '../commands/access.js';
import type { Tenant } from '../conversation/tenancy.js';
import { createHomeActivity } from './home-activity.js';
import { createHomeData, type HomeDataDeps, type PersonHome } from './home-data.js';
import { createRepublishThrottle } from './republish-throttle.js';
import { registryConnections } from './service-connections.js';
import { installationWatches, type WatchRecords } from './watched-channels.js';

/** How long after opening the Home tab an admin's settings changes are pushed (someone may be looking). */
const LOOKING_MS = 30 * 60_000;

/** The publisher: on open, on thread changes, and on an admin's own settings changes. */
function createAppHome(
  deps: Pick<AppHomeDeps, 'publish' | 'within' | 'republishIntervalMs' | 'now' | 'logger'>,
  data: ReturnType<typeof createHomeData>,
) {
  const { logger, now } = deps;

  async function publish(tenant: Tenant, userId: string): Promise<void> {
    try {
      await deps.publish(userId, await data.forPerson(userId, tenant));
    } catch (error) {
      logger.warn({ err: error, user: userId }, 'App Home not published');
    }
  }

  // A person is one per installation: the throttle's key is `<installation>:<user>`.
  const throttle = createRepublishThrottle({
    publish: (key) => {
      const [teamId = '', userId = ''] = key.split(':');
      return deps
        .within(teamId, (tenant) => publish(tenant, userId))
        .catch((error: unknown) => logger.warn({ err: error, user: userId }, 'App Home not published'));
    },
    ...(deps.republishIntervalMs === undefined ? {} : { intervalMs: deps.republishIntervalMs }),
  });
  /** Who opened their Home tab on this replica lately, oldest first (re-inserted on each open). */
  const openedAt = new Map<string, number>();
  const keyOf = (teamId: string, userId: string) => `${teamId}:${userId}`;

  return {
    /** The person opened the Home tab in `tenant`'s installation: publish now (their interval starts). */
    async opened(tenant: Tenant, userId: string): Promise<void> {
      const key = keyOf(tenant.teamId, userId);
      openedAt.delete(key);
      openedAt.set(key, now());
      for (const [user, at] of openedAt) {
        if (now() - at < LOOKING_MS) break;
        openedAt.delete(user);
      }
      throttle.published(key);
      await publish(tenant, userId);
    },
    /** The person's threads in installation `teamId` changed: publish again there, rate-bounded. */
    threadsChanged: (teamId: string, userId: string) => throttle.request(keyOf(teamId, userId)),
    /** An admin changed settings their home shows: republished if they opened it here lately. */
    settingsChanged(tenant: Tenant, userId: string): void {
      const key = keyOf(tenant.teamId, userId);
      const at = openedAt.get(key);
      if (at !== undefined && now() - at < LOOKING_MS) throttle.request(key);
    },
    stop: () => throttle.stop(),
  };
}

export type AppHome = ReturnType<typeof createAppHome>;

/** What App Home is handed: what a home shows, and how and where to publish it. */
type AppHomeDeps = Omit<HomeDataDeps, 'store' | 'admins' | 'connections' | 'watched'> & {
  /** `views.publish` of the person's home, in the installation in scope. */
  publish(userId: string, home: PersonHome): Promise<unknown>;
  /** Runs a later publish in the installation `teamId` names (a turn's outcome lands long after its event). */
  within(teamId: string, work: (tenant: Tenant) => Promise<void>): Promise<void>;
  store: HomeDataDeps['store'] & WatchRecords;
  /** ADMIN_USER_IDS, the app's organisation (read per person: with OAuth, the installation's) and users.info. */
  admins: Omit<AdminCheckOptions, 'onLookupError'>;
  /** Every service connection, the default one first, as `/agent connections` lists them. */
  connections: Parameters<typeof registryConnections>[0];
  /** Least time between two publishes for one person after a change. Default 10 s. */
  republishIntervalMs: number | undefined;
  /** OAuth: the weekly figures are kept per installation. */
  byInstallation: boolean;
};

/** App Home's room: what a home shows, its publisher, and the activity that re-publishes it. */
export function wireAppHome(deps: AppHomeDeps) {
  const { store, now, logger } = deps;
  const data = createHomeData({
    ...deps,
    admins: createAdminCheck(deps.admins),
    connections: registryConnections(deps.connections),
    watched: installationWatches({ store }),
  });
  const appHome = createAppHome(deps, data);
  const homeActivity = createHomeActivity({
    store,
    now,
    logger,
    onThreadsChanged: appHome.threadsChanged,
    byInstallation: deps.byInstallation,
  });
  return { appHome, homeActivity };
}
