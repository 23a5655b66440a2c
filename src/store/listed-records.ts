import type { Keyv } from 'keyv';
import type { HomePrimitives } from './primitives.js';

/**
 * Records an admin sets and removes (channel bindings and watches, answer channels, schedules) on
 * either backend: one keyv record per id, no expiry, and the ids in a set of the home primitives,
 * for App Home and the schedule ticker's round. `listed(keyOf, set)` makes one kind's records.
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
