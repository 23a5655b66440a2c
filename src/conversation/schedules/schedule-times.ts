/** When a scheduled question is due, through its adder's zone (never a fixed offset: DST). Pure. */
import { DAY_MS, MINUTE_MS, zoneOffsetMinutes } from '../context/time-range.js';

/** 0 = Sunday … 6 = Saturday, as `Date#getUTCDay`. */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export const WEEKDAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const ALL_DAYS: Weekday[] = [0, 1, 2, 3, 4, 5, 6];
const WORK_DAYS: Weekday[] = [1, 2, 3, 4, 5];

/** When a schedule is due: its days and its local time, in its zone. */
export interface ScheduleTiming {
  days: readonly Weekday[];
  /** `HH:MM`, 24-hour. */
  time: string;
  /** IANA zone name (`users.info` → `tz`), e.g. `Europe/Berlin`. */
  timeZone: string;
}

/** `daily`, `weekdays`, or `mon,tue,…` (three-letter names, any case) → sorted days; undefined if not. */
export function parseDays(text: string): Weekday[] | undefined {
  const word = text.toLowerCase();
  if (word === 'daily' || word === 'everyday') return [...ALL_DAYS];
  if (word === 'weekdays') return [...WORK_DAYS];
  const days = new Set<Weekday>();
  for (const part of word.split(',')) {
    const index = WEEKDAY_NAMES.indexOf(part.trim().slice(0, 3) as (typeof WEEKDAY_NAMES)[number]);
    if (index < 0 || part.trim().length < 3) return undefined;
    days.add(index as Weekday);
  }
  return days.size > 0 ? [...days].sort() : undefined;
}

/** `9:00`, `09:00`, `17:30` → `HH:MM`; undefined when it is not a 24-hour time. */
export function parseClockTime(text: string): string | undefined {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!match) return undefined;
  return `${(match[1] ?? '').padStart(2, '0')}:${match[2]}`;
}

/** `daily`, `weekdays`, or `mon, wed, fri`: how replies and App Home name the days. */
export function describeDays(days: readonly Weekday[]): string {
  if (days.length === 7) return 'daily';
  if (days.length === 5 && WORK_DAYS.every((day) => days.includes(day))) return 'weekdays';
  return days.map((day) => WEEKDAY_NAMES[day]).join(', ');
}

export function isKnownZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant local `wall` names in `timeZone`: a repeated time's first; a skipped one the offset before. */
function wallClockInstant(wall: number, timeZone: string): number {
  const before = zoneOffsetMinutes(timeZone, wall - DAY_MS);
  const after = zoneOffsetMinutes(timeZone, wall + DAY_MS);
  const valid = [before, after]
    .map((offset) => wall - offset * MINUTE_MS)
    .filter((instant) => instant + zoneOffsetMinutes(timeZone, instant) * MINUTE_MS === wall);
  return valid.length > 0 ? Math.min(...valid) : wall - before * MINUTE_MS;
}

/** The local calendar day (as UTC midnight epoch ms) holding `at` in `timeZone`. */
function localDay(at: number, timeZone: string): number {
  const wall = at + zoneOffsetMinutes(timeZone, at) * MINUTE_MS;
  return Math.floor(wall / DAY_MS) * DAY_MS;
}

/** The occurrence on the local day `day` (UTC midnight epoch ms), if the schedule has one that day. */
function occurrenceOn(day: number, timing: ScheduleTiming): number | undefined {
  const weekday = new Date(day).getUTCDay() as Weekday;
  if (!timing.days.includes(weekday)) return undefined;
  const [hours = 0, minutes = 0] = timing.time.split(':').map(Number);
  return wallClockInstant(day + (hours * 60 + minutes) * MINUTE_MS, timing.timeZone);
}

/** The nearest occurrence that `fits`, from `at`'s local day on, `step` days at a time. */
function nearestOccurrence(timing: ScheduleTiming, at: number, step: 1 | -1, fits: (at: number) => boolean) {
  const today = localDay(at, timing.timeZone);
  // Eight days reach every weekday once past today, whatever today's occurrence was.
  for (let offset = 0; offset <= 8; offset += 1) {
    const occurrence = occurrenceOn(today + step * offset * DAY_MS, timing);
    if (occurrence !== undefined && fits(occurrence)) return occurrence;
  }
  return undefined;
}

/** The first occurrence strictly after `after` (epoch ms); undefined when the schedule has no day. */
export const nextOccurrence = (timing: ScheduleTiming, after: number) =>
  nearestOccurrence(timing, after, 1, (at) => at > after);

/** The last occurrence at or before `now` (epoch ms), within the past eight days. */
export const previousOccurrence = (timing: ScheduleTiming, now: number) =>
  nearestOccurrence(timing, now, -1, (at) => at <= now);

/** "Tue 2026-03-31 09:00" in `timeZone`: how replies name a run (with the zone's name beside it). */
export function localTimeText(at: number, timeZone: string): string {
  const wall = at + zoneOffsetMinutes(timeZone, at) * MINUTE_MS;
  const date = new Date(wall);
  const name = WEEKDAY_NAMES[date.getUTCDay() as Weekday];
  const label = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return `${label} ${date.toISOString().slice(0, 16).replace('T', ' ')}`;
}
