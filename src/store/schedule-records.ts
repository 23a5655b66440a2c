import type { Keyv } from 'keyv';
import type { Schedule, ScheduleStore } from '../conversation/schedules/schedules.js';
import type { StoreKeys } from './keys.js';
import { listedRecords } from './listed-records.js';
import type { HomePrimitives } from './primitives.js';

/** The set of every schedule's store name: the ticker's round reads it (beside the answer channels' set). */
export const SCHEDULES_LISTED = 'schedule:listed';

/** Scheduled questions on either backend, as listed records (an admin removes them). */
export function createScheduleRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
): ScheduleStore {
  const schedules = listedRecords(keyv, homePrimitives)<Schedule>(keys.schedule, SCHEDULES_LISTED);
  return {
    getSchedule: schedules.get,
    saveSchedule: schedules.save,
    deleteSchedule: schedules.remove,
    async listSchedules() {
      const names = await schedules.list();
      if (names.length === 0) return [];
      const records = await keyv.getMany<Schedule>(names.map((name) => keys.schedule(name)));
      return records.filter((record): record is Schedule => record !== undefined);
    },
  };
}
