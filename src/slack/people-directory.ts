import type { PeopleDirectory } from '../conversation/context/context-ports.js';
import type { UserDirectory } from './user-directory.js';

/**
 * The context's PeopleDirectory on the bot's one cached `users.info` look-up (user-directory.ts):
 * the name people see (display name, else real name) and the IANA zone. A failed look-up gives
 * undefined: names and zones are a nicety, never a reason to fail a turn. A deleted user keeps
 * the name Slack still returns.
 */
export function createSlackPeopleDirectory(users: Pick<UserDirectory, 'lookup'>): PeopleDirectory {
  return {
    async profile(userId) {
      const person = await users.lookup(userId).catch(() => undefined);
      const name = person?.displayName ?? person?.realName;
      return person && name ? { name, tz: person.tz } : undefined;
    },
  };
}
