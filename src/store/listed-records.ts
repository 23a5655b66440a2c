import type { Keyv } from 'keyv';
import type { HomePrimitives } from './primitives.js';

/**
 * Records an admin sets and removes (bindings, watches, answer channels, schedules): one keyv
 * record per id, no expiry, the ids listed in a set for App Home and the schedule ticker.
 */
export function listedRecords(keyv: Keyv, sets: HomePrimitives) {
  return <T>(keyOf: (id: string) => string, set: string) => ({
    get: (id: string) => keyv.get<T>(keyOf(id)),
    async save(id: string, record: T) {
      await keyv.set(keyOf(id), record);
      await sets.addMember(set, id);
    },
    async remove(id: string) {
      await keyv.delete(keyOf(id));
      await sets.removeMember(set, id);
    },
    list: async () => (await sets.members(set)).sort(),
  });
}
