import type { Keyv } from 'keyv';
import type { Schedule, ScheduleStore } from '../conversation/schedules/schedules.js';
import type { HomePrimitives } from './home-primitives.js';
import type { StoreKeys } from './keys.js';

/** The set of every schedule's id: the ticker's round reads it (beside the answer channels' set). */
export const SCHEDULES_LISTED = 'schedule:listed';

/**
 * Scheduled questions on either backend: one record per schedule through keyv (no expiry: an admin
 * removes it) and a listed set of ids through the home primitives.
 */
export function createScheduleRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
  ensureOpen: () => void,
): ScheduleStore {
  return {
    async getSchedule(id) {
      ensureOpen();
      return keyv.get<Schedule>(keys.schedule(id));
    },
    async saveSchedule(schedule) {
      ensureOpen();
      await keyv.set(keys.schedule(schedule.id), schedule);
      await homePrimitives.addMember(SCHEDULES_LISTED, schedule.id);
    },
    async deleteSchedule(id) {
      ensureOpen();
      await keyv.delete(keys.schedule(id));
      await homePrimitives.removeMember(SCHEDULES_LISTED, id);
    },
    async listSchedules() {
      ensureOpen();
      const ids = (await homePrimitives.members(SCHEDULES_LISTED)).sort();
      if (ids.length === 0) return [];
      const records = await keyv.getMany<Schedule>(ids.map((id) => keys.schedule(id)));
      return records.filter((record): record is Schedule => record !== undefined);
    },
  };
}
