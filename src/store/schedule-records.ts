import type { Keyv } from 'keyv';
import type { Schedule, ScheduleStore } from '../conversation/schedules/schedules.js';
import type { StoreKeys } from './keys.js';
import type { HomePrimitives } from './primitives.js';

/** The set of every schedule's store name: the ticker's round reads it (beside the answer channels' set). */
export const SCHEDULES_LISTED = 'schedule:listed';

/**
 * Scheduled questions on either backend: one record per schedule through keyv (no expiry: an admin
 * removes it) and a listed set of ids through the home primitives.
 */
export function createScheduleRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
): ScheduleStore {
  return {
    async getSchedule(name) {
      return keyv.get<Schedule>(keys.schedule(name));
    },
    async saveSchedule(name, schedule) {
      await keyv.set(keys.schedule(name), schedule);
      await homePrimitives.addMember(SCHEDULES_LISTED, name);
    },
    async deleteSchedule(name) {
      await keyv.delete(keys.schedule(name));
      await homePrimitives.removeMember(SCHEDULES_LISTED, name);
    },
    async listSchedules() {
      const names = (await homePrimitives.members(SCHEDULES_LISTED)).sort();
      if (names.length === 0) return [];
      const records = await keyv.getMany<Schedule>(names.map((name) => keys.schedule(name)));
      return records.filter((record): record is Schedule => record !== undefined);
    },
  };
}
