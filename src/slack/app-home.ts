/**
 * App Home on the Web API (DESIGN "App Home"): `views.publish` of the person's home when they open
 * the Home tab, and again when their own threads change — at most once per interval per person,
 * coalesced (republish-throttle.ts). A failure is logged, never shown.
 * https://docs.slack.dev/reference/methods/views.publish
 */
import type { WebClient } from '@slack/web-api';
import type { Tenant } from '../conversation/tenancy.js';
import type { HomeData } from '../home/home-data.js';
import { createRepublishThrottle } from '../home/republish-throttle.js';
import type { Logger } from '../runtime/logger.js';
import { type HomeViewOptions, renderHome } from './views/home-view.js';

export interface AppHomeDeps {
  client: WebClient;
  data: HomeData;
  view: HomeViewOptions;
  logger: Logger;
  /**
   * Runs a later publish in the installation `teamId` names (a turn's thread key's team: its
   * outcome lands long after the event), handing it that installation's tenant.
   */
  within(teamId: string, work: (tenant: Tenant) => Promise<void>): Promise<void>;
  /** Least time between two publishes for one person after a change. Default 10 s. */
  republishIntervalMs?: number | undefined;
  /** Default Date.now. */
  now?: (() => number) | undefined;
}

/**
 * How long after opening the Home tab an admin's settings changes are pushed to it. Every open
 * publishes a fresh home anyway: a push only helps someone who may be looking at it now.
 */
const LOOKING_MS = 30 * 60_000;

export function createAppHome(deps: AppHomeDeps) {
  const { client, data, logger } = deps;

  async function publish(tenant: Tenant, userId: string): Promise<void> {
    try {
      const view = renderHome(await data.forPerson(userId, tenant), deps.view);
      await client.views.publish({ user_id: userId, view });
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
        .catch((error: unknown) => {
          logger.warn({ err: error, user: userId }, 'App Home not published');
        });
    },
    ...(deps.republishIntervalMs === undefined ? {} : { intervalMs: deps.republishIntervalMs }),
  });
  const now = deps.now ?? Date.now;
  /** Who opened their Home tab on this replica lately, oldest first (re-inserted on each open). */
  const openedAt = new Map<string, number>();

  function noteOpened(userId: string): void {
    openedAt.delete(userId);
    openedAt.set(userId, now());
    for (const [user, at] of openedAt) {
      if (now() - at < LOOKING_MS) break;
      openedAt.delete(user);
    }
  }

  const keyOf = (teamId: string, userId: string) => `${teamId}:${userId}`;

  return {
    /** The person opened the Home tab in `tenant`'s installation: publish now (their interval starts). */
    async opened(tenant: Tenant, userId: string): Promise<void> {
      noteOpened(keyOf(tenant.teamId, userId));
      throttle.published(keyOf(tenant.teamId, userId));
      await publish(tenant, userId);
    },
    /** The person's threads in installation `teamId` changed: publish again there, rate-bounded. */
    threadsChanged: (teamId: string, userId: string) => throttle.request(keyOf(teamId, userId)),
    /**
     * An admin changed what the admin part shows (agents, channel agents, watched channels,
     * connections): their own home is published again, rate-bounded, when they opened it on this
     * replica in the last half hour. Other admins see it when they next open the tab.
     */
    settingsChanged(tenant: Tenant, userId: string): void {
      const key = keyOf(tenant.teamId, userId);
      const at = openedAt.get(key);
      if (at !== undefined && now() - at < LOOKING_MS) throttle.request(key);
    },
    stop: () => throttle.stop(),
  };
}

export type AppHome = ReturnType<typeof createAppHome>;
