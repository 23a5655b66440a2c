import type { PeopleDirectory } from '../conversation/context/context-ports.js';
import type { UserDirectory } from './user-directory.js';

/**
 * The context's PeopleDirectory on the cached `users.info` look-up: display name, else real name,
 * and zone. A failed look-up gives undefined: names are a nicety, never a reason to fail a turn.
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
