import type { UsersInfoResponse, WebClient } from '@slack/web-api';

/**
 * One cached `users.info` look-up for every feature that needs to know a person: who is inside
 * the organisation (team, enterprise), who is a workspace admin, and later author names and time
 * zones. https://docs.slack.dev/reference/methods/users.info
 */

/** What the bot knows about a Slack user, from `users.info`. */
export interface SlackPerson {
  id: string;
  /** The person's home workspace (`user.team_id`). */
  teamId: string | undefined;
  /** Their Enterprise Grid org (`user.enterprise_user.enterprise_id`); undefined outside Grid. */
  enterpriseId: string | undefined;
  /** Workspace admin (`is_admin`). */
  isAdmin: boolean;
  /** Workspace owner (`is_owner`). */
  isOwner: boolean;
  /** A guest: `is_restricted` (multi-channel) or `is_ultra_restricted` (single-channel). */
  isGuest: boolean;
  /** Another organisation's person seen through Slack Connect (`is_stranger`). */
  isStranger: boolean;
  isBot: boolean;
  /** A deactivated account. */
  deleted: boolean;
  /** IANA time zone (`tz`, e.g. `Europe/Berlin`), when Slack gives one. */
  tz: string | undefined;
  /** `profile.display_name`, undefined when empty. */
  displayName: string | undefined;
  /** `profile.real_name` (or `real_name`), undefined when empty. */
  realName: string | undefined;
}

/** One `users.info` call: undefined when Slack does not know the user; throws when Slack cannot answer. */
export type FetchSlackPerson = (userId: string) => Promise<SlackPerson | undefined>;

export interface UserDirectoryOptions {
  fetch: FetchSlackPerson;
  /** How long an answer is trusted. Default 5 minutes: a demoted admin loses access soon. */
  ttlMs?: number;
  /** Most people remembered; the least recently used go first. Default 5,000. */
  maxEntries?: number;
  /** Default Date.now. */
  now?: () => number;
  /**
   * Whose view of the person is asked for: with OAuth, the installation under way. Slack answers
   * `users.info` as the asking workspace sees the person (a stranger through Slack Connect in one,
   * at home in the other; a guest in one Grid workspace, a member in another), so one workspace's
   * answer must never decide for another's. Undefined (one workspace): one view.
   */
  partition?: () => string | undefined;
}

/** People by Slack user id. */
export interface UserDirectory {
  /**
   * The person, or undefined when Slack does not know them. Answers (including "unknown") are
   * cached for the TTL; concurrent look-ups of one user share one call; a failed call is not
   * cached and rejects, so each caller decides how to fail (closed, for access decisions).
   */
  lookup(userId: string): Promise<SlackPerson | undefined>;
}

/** Builds the directory. Its cache lives as long as the returned object (one per process). */
export function createUserDirectory(options: UserDirectoryOptions): UserDirectory {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxEntries = Math.max(1, options.maxEntries ?? 5_000);
  const now = options.now ?? Date.now;
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  const cache = new Map<string, { person: SlackPerson | undefined; expiresAt: number }>();
  const pending = new Map<string, Promise<SlackPerson | undefined>>();

  function remember(key: string, person: SlackPerson | undefined): void {
    cache.delete(key);
    cache.set(key, { person, expiresAt: now() + ttlMs });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  }

  return {
    lookup(userId) {
      const view = options.partition?.();
      const key = view === undefined ? userId : `${view}/${userId}`;
      const cached = cache.get(key);
      if (cached && cached.expiresAt > now()) {
        cache.delete(key);
        cache.set(key, cached);
        return Promise.resolve(cached.person);
      }
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      const answer = (async () => {
        try {
          // Through a then-callback: even a fetch that throws at once settles after `pending.set` below.
          const person = await Promise.resolve(userId).then(options.fetch);
          remember(key, person);
          return person;
        } finally {
          pending.delete(key);
        }
      })();
      pending.set(key, answer);
      return answer;
    },
  };
}

/** `users.info`'s `user` (the Web client's type). */
type UsersInfoUser = NonNullable<UsersInfoResponse['user']>;

/** `users.info`'s user as a SlackPerson. */
export function toSlackPerson(userId: string, user: UsersInfoUser): SlackPerson {
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    id: user.id ?? userId,
    teamId: text(user.team_id),
    enterpriseId: text(user.enterprise_user?.enterprise_id),
    isAdmin: user.is_admin === true,
    isOwner: user.is_owner === true,
    isGuest: user.is_restricted === true || user.is_ultra_restricted === true,
    isStranger: user.is_stranger === true,
    isBot: user.is_bot === true,
    deleted: user.deleted === true,
    tz: text(user.tz),
    displayName: text(user.profile?.display_name),
    realName: text(user.profile?.real_name) ?? text(user.real_name),
  };
}

/** `users.info` through the Web client; `user_not_found` is an answer (undefined), not a failure. */
export function slackUsersInfo(client: WebClient): FetchSlackPerson {
  return async (userId) => {
    try {
      const { user } = await client.users.info({ user: userId });
      return user ? toSlackPerson(userId, user) : undefined;
    } catch (error) {
      if ((error as { data?: { error?: string } }).data?.error === 'user_not_found') return undefined;
      throw error;
    }
  };
}
