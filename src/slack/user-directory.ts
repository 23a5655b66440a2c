import type { UsersInfoResponse, WebClient } from '@slack/web-api';

/**
 * What the bot knows about a Slack user, from one cached `users.info` look-up shared by every
 * feature: https://docs.slack.dev/reference/methods/users.info
 */
export type SlackPerson = ReturnType<typeof toSlackPerson>;

/** One `users.info` call: undefined when Slack does not know the user; throws when Slack cannot answer. */
export type FetchSlackPerson = (userId: string) => Promise<SlackPerson | undefined>;

/** People by Slack user id. */
export interface UserDirectory {
  /**
   * The person, or undefined when Slack does not know them; cached for the TTL, one call for
   * concurrent look-ups. A failure is not cached and rejects: each caller decides how to fail.
   */
  lookup(userId: string): Promise<SlackPerson | undefined>;
}

/** Builds the directory. Its cache lives as long as the returned object (one per process). */
export function createUserDirectory(options: {
  fetch: FetchSlackPerson;
  /** How long an answer is trusted. Default 5 minutes: a demoted admin loses access soon. */
  ttlMs?: number;
  /** Most people remembered; the least recently used go first. Default 5,000. */
  maxEntries?: number;
  /** Default Date.now. */
  now?: () => number;
  /**
   * Whose view is asked for: with OAuth, the installation under way. Slack answers as the asking
   * workspace sees the person (a stranger in one, at home in another), so one workspace's answer
   * must never decide for another's. Undefined (one workspace): one view.
   */
  partition?: () => string | undefined;
}): UserDirectory {
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const maxEntries = Math.max(1, options.maxEntries ?? 5_000);
  const now = options.now ?? Date.now;
  // A Map keeps insertion order: re-inserting on every hit makes its first key the least recently used.
  const cache = new Map<string, { person: SlackPerson | undefined; expiresAt: number }>();
  const pending = new Map<string, Promise<SlackPerson | undefined>>();

  function keep(key: string, entry: { person: SlackPerson | undefined; expiresAt: number }): void {
    cache.delete(key);
    cache.set(key, entry);
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
  }

  return {
    lookup(userId) {
      const view = options.partition?.();
      const key = view === undefined ? userId : `${view}/${userId}`;
      const cached = cache.get(key);
      if (cached && cached.expiresAt > now()) {
        keep(key, cached);
        return Promise.resolve(cached.person);
      }
      const inFlight = pending.get(key);
      if (inFlight) return inFlight;
      // Through a then-callback: even a fetch that throws at once settles after `pending.set` below.
      const answer = Promise.resolve(userId)
        .then(options.fetch)
        .then((person) => {
          keep(key, { person, expiresAt: now() + ttlMs });
          return person;
        })
        .finally(() => pending.delete(key));
      pending.set(key, answer);
      return answer;
    },
  };
}

export function toSlackPerson(userId: string, user: NonNullable<UsersInfoResponse['user']>) {
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  return {
    id: user.id ?? userId,
    /** The person's home workspace. */
    teamId: text(user.team_id),
    /** Their Enterprise Grid org; undefined outside Grid. */
    enterpriseId: text(user.enterprise_user?.enterprise_id),
    isAdmin: user.is_admin === true,
    isOwner: user.is_owner === true,
    /** A multi- or single-channel guest. */
    isGuest: user.is_restricted === true || user.is_ultra_restricted === true,
    /** Another organisation's person seen through Slack Connect. */
    isStranger: user.is_stranger === true,
    isBot: user.is_bot === true,
    deleted: user.deleted === true,
    /** IANA time zone (`Europe/Berlin`), when Slack gives one. */
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
