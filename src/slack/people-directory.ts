import type { WebClient } from '@slack/web-api';
import type { PeopleDirectory, PersonProfile } from '../conversation/context-ports.js';

/** How many people the cache remembers, and for how long: names and zones change rarely. */
const MAX_PEOPLE = 1_000;
const TTL_MS = 60 * 60 * 1000;

interface Entry {
  profile: PersonProfile | undefined;
  expiresAt: number;
}

type SlackUser = {
  deleted?: boolean;
  name?: string;
  real_name?: string;
  tz?: string;
  profile?: { display_name?: string; real_name?: string };
};

/** The name people see: display name, else real name, else handle. */
function nameOf(user: SlackUser): string | undefined {
  const candidates = [user.profile?.display_name, user.profile?.real_name, user.real_name, user.name];
  return candidates.find((name) => typeof name === 'string' && name.trim() !== '')?.trim();
}

/**
 * The context's PeopleDirectory on `users.info`, with a small bounded cache (oldest out first).
 * A failed look-up is not cached and gives undefined: names and zones are a nicety, never a
 * reason to fail a turn. A deleted user keeps the name Slack still returns.
 */
export function createSlackPeopleDirectory(client: WebClient, now: () => number = Date.now): PeopleDirectory {
  const cache = new Map<string, Entry>();
  const pending = new Map<string, Promise<PersonProfile | undefined>>();

  async function lookUp(userId: string): Promise<PersonProfile | undefined> {
    try {
      const { user } = await client.users.info({ user: userId });
      const found = user as SlackUser | undefined;
      const name = found && nameOf(found);
      const profile = name ? { name, tz: found?.tz } : undefined;
      remember(userId, profile);
      return profile;
    } catch (error) {
      // A user Slack does not know is an answer worth remembering; anything else is asked again.
      if ((error as { data?: { error?: string } }).data?.error === 'user_not_found')
        remember(userId, undefined);
      return undefined;
    }
  }

  function remember(userId: string, profile: PersonProfile | undefined): void {
    cache.delete(userId);
    cache.set(userId, { profile, expiresAt: now() + TTL_MS });
    while (cache.size > MAX_PEOPLE) cache.delete(cache.keys().next().value as string);
  }

  return {
    profile(userId) {
      const cached = cache.get(userId);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.profile);
      const inFlight = pending.get(userId);
      if (inFlight) return inFlight;
      const answer = lookUp(userId).finally(() => pending.delete(userId));
      pending.set(userId, answer);
      return answer;
    },
  };
}
