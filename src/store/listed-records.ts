import type { Keyv } from 'keyv';
import type { HomePrimitives } from './primitives.js';

/** Records an admin sets (bindings, watches, answer channels, schedules): no expiry, ids listed in a set. */
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
