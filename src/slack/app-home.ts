/**
 * App Home on the Web API (DESIGN "App Home"): `views.publish` of the person's home when they open
 * the Home tab, and again when their own threads change — at most once per interval per person,
 * coalesced (republish-throttle.ts). A failure is logged, never shown.
 * https://docs.slack.dev/reference/methods/views.publish
 */
import type { WebClient } from '@slack/web-api';
import type { HomeData } from '../home/home-data.js';
import { createRepublishThrottle } from '../home/republish-throttle.js';
import type { Logger } from '../runtime/logger.js';
import { type HomeViewOptions, renderHome } from './views/home-view.js';

export interface AppHomeDeps {
  client: WebClient;
  data: HomeData;
  view: HomeViewOptions;
  logger: Logger;
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

  async function publish(userId: string): Promise<void> {
    try {
      const view = renderHome(await data.forPerson(userId), deps.view);
      await client.views.publish({ user_id: userId, view });
    } catch (error) {
      logger.warn({ err: error, user: userId }, 'App Home not published');
    }
  }

  const throttle = createRepublishThrottle({
    publish,
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

  return {
    /** The person opened the Home tab: publish now (their interval starts). */
    async opened(userId: string): Promise<void> {
      noteOpened(userId);
      throttle.published(userId);
      await publish(userId);
    },
    /** The person's threads changed: publish again, rate-bounded. */
    threadsChanged: (userId: string) => throttle.request(userId),
    /**
     * An admin changed what the admin part shows (agents, channel agents, watched channels,
     * connections): their own home is published again, rate-bounded, when they opened it on this
     * replica in the last half hour. Other admins see it when they next open the tab.
     */
    settingsChanged(userId: string): void {
      const at = openedAt.get(userId);
      if (at !== undefined && now() - at < LOOKING_MS) throttle.request(userId);
    },
    stop: () => throttle.stop(),
  };
}

export type AppHome = ReturnType<typeof createAppHome>;
