/** A time phrase as the run's `context.timerange` (DESIGN "Time range"), read with chrono. Pure. */
// English only: the root entry loads every locale (3.7 MB of heap, not 0.9); its types load nothing.
import type * as chrono from 'chrono-node';
import { parse as parseDates } from 'chrono-node/en';

import type { TimeRange } from '../ports.js';

export type TimeRangeRefusal = 'future' | 'reversed' | 'too-long';

export type TimeRangeResult =
  | { kind: 'none' }
  | { kind: 'range'; range: TimeRange; phrase: string }
  | { kind: 'refused'; reason: TimeRangeRefusal; phrase: string };

/** A minute and a day in ms (the schedules and alerts count in them too). */
export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
/** The longest range a message may ask for. */
export const MAX_RANGE_MS = 31 * DAY_MS;

/** ISO 8601 UTC without milliseconds. */
export const isoUtc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One formatter per zone (building one costs ~25 formats); the bound guards against nonsense zones. */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_ZONES = 1_000;

function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (format) return format;
  format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  if (offsetFormats.size >= MAX_CACHED_ZONES) offsetFormats.clear();
  offsetFormats.set(timeZone, format);
  return format;
}

/** The zone's offset from UTC in minutes at `at` (e.g. -300 for New York in winter); 0 when unknown. */
export function zoneOffsetMinutes(timeZone: string | undefined, at: number): number {
  if (!timeZone) return 0;
  try {
    const name = offsetFormat(timeZone)
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
    const match = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(name ?? '');
    if (!match) return 0;
    const minutes = Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
    return match[1] === '-' ? -minutes : minutes;
  } catch {
    // An unknown zone name (RangeError): read the phrase in UTC rather than fail the turn.
    return 0;
  }
}

/** The instant a wall-clock time (as UTC epoch ms) names in `timeZone`, daylight saving included. */
function fromWallClock(wall: number, timeZone: string | undefined): number {
  const guess = wall - zoneOffsetMinutes(timeZone, wall) * MINUTE_MS;
  return wall - zoneOffsetMinutes(timeZone, guess) * MINUTE_MS;
}

/** Local midnight in `timeZone` of the day holding `ms`. */
function startOfDay(ms: number, timeZone: string | undefined): number {
  const wall = ms + zoneOffsetMinutes(timeZone, ms) * MINUTE_MS;
  return fromWallClock(Math.floor(wall / DAY_MS) * DAY_MS, timeZone);
}

/** A parsed date's instant: chrono uses now's offset, so the components are read again in the zone (DST). */
function instantOf(components: chrono.ParsedComponents, timeZone: string | undefined): number {
  const part = (name: chrono.Component, fallback = 0) => components.get(name) ?? fallback;
  const wall = Date.UTC(
    part('year'),
    part('month', 1) - 1,
    part('day', 1),
    part('hour'),
    part('minute'),
    part('second'),
    part('millisecond'),
  );
  return fromWallClock(wall, timeZone);
}

/** Words that make a single point the start of a range up to now ("since 9:00", "last 2 hours"). */
const SINCE_BEFORE = /\b(since|after|from)\s*$/i;
const SINCE_PHRASE = /^(the\s+)?(last|past)\b|\bago$/i;
const NOT_A_RANGE = /^(right\s+)?now$/i;

const minuteOfDay = (components: chrono.ParsedComponents) =>
  (components.get('hour') ?? 0) * 60 + (components.get('minute') ?? 0);

/** The first time phrase in `text` as a range; `timeZone` (IANA) is UTC when absent or unknown. */
export function parseTimeRange(text: string, now: number, timeZone?: string): TimeRangeResult {
  const offset = zoneOffsetMinutes(timeZone, now);
  // chrono reads "from A to B" as one range but "between A and B" as two dates.
  const normalised = text.replace(/\bbetween\b(.{1,40}?)\band\b/gi, 'from$1to');
  const results = parseDates(
    normalised,
    { instant: new Date(now), timezone: offset },
    { forwardDate: false },
  ).filter((result) => !NOT_A_RANGE.test(result.text.trim()));
  const found = results[0];
  if (!found) return { kind: 'none' };
  const phrase = found.text;
  const since = SINCE_BEFORE.test(normalised.slice(0, found.index)) || SINCE_PHRASE.test(phrase.trim());
  const bounds = boundsOf(found, { now, timeZone, since });
  if ('reason' in bounds) return { kind: 'refused', reason: bounds.reason, phrase };
  const end = Math.min(bounds.end, now);
  if (bounds.start >= now) return { kind: 'refused', reason: 'future', phrase };
  if (end <= bounds.start) return { kind: 'refused', reason: 'reversed', phrase };
  if (end - bounds.start > MAX_RANGE_MS) return { kind: 'refused', reason: 'too-long', phrase };
  return { kind: 'range', range: { startTime: isoUtc(bounds.start), endTime: isoUtc(end) }, phrase };
}

function boundsOf(
  found: chrono.ParsedResult,
  at: { now: number; timeZone: string | undefined; since: boolean },
): { start: number; end: number } | { reason: TimeRangeRefusal } {
  const { start: from, end: to } = found;
  const dayKnown = from.isCertain('day') || from.isCertain('weekday');
  // chrono moves "from 5pm to 3pm" to the next day; a person who wrote it meant it reversed.
  if (to && !from.isCertain('day') && !to.isCertain('day') && minuteOfDay(to) < minuteOfDay(from)) {
    return { reason: 'reversed' };
  }
  let start = instantOf(from, at.timeZone);
  let end = to ? instantOf(to, at.timeZone) : at.now;
  if (!from.isCertain('hour')) start = startOfDay(start, at.timeZone);
  if (to && !to.isCertain('hour')) end = startOfDay(end + DAY_MS, at.timeZone);
  // "yesterday": the whole day, up to the next local midnight (2 h past a day: a DST day may be 23 h or 25 h).
  if (!to && !from.isCertain('hour') && !at.since)
    end = startOfDay(start + DAY_MS + 120 * MINUTE_MS, at.timeZone);
  // A time or weekday without a date is its most recent past occurrence ("since 9:00" at 8:00).
  if (!from.isCertain('day') && start > at.now) {
    const back = from.isCertain('weekday') ? 7 * DAY_MS : DAY_MS;
    start -= back;
    if (to && !to.isCertain('day')) end -= back;
  }
  if (!dayKnown && !to && start > at.now) return { reason: 'future' };
  return { start, end };
}

/** From the thread root minus the look-back to now, at most {@link MAX_RANGE_MS} (an old root: its month). */
export function alertWindow(rootTs: string, now: number, lookbackMinutes: number): TimeRange | undefined {
  const rootMs = Number(rootTs) * 1000;
  if (!Number.isFinite(rootMs) || rootMs <= 0) return undefined;
  const start = Math.min(rootMs, now) - lookbackMinutes * MINUTE_MS;
  const end = Math.min(now, start + MAX_RANGE_MS);
  return end > start ? { startTime: isoUtc(start), endTime: isoUtc(end) } : undefined;
}
