import { describe, expect, it } from 'vitest';
import {
  describeDays,
  nextOccurrence,
  parseClockTime,
  parseDays,
  previousOccurrence,
  type ScheduleTiming,
} from '../../../src/conversation/schedules/schedule-times.js';

const at = (iso: string) => Date.parse(iso);
const daily = (time: string, timeZone: string): ScheduleTiming => ({
  days: [0, 1, 2, 3, 4, 5, 6],
  time,
  timeZone,
});

/**
 * DESIGN "Scheduled questions": the local time stays, the UTC instant moves with daylight saving.
 * 2026: Berlin springs forward on 29 March and falls back on 25 October; New York on 8 March and
 * 1 November.
 */
describe('nextOccurrence', () => {
  it.each([
    [
      'Berlin, the day before spring forward → after (CET → CEST)',
      daily('09:00', 'Europe/Berlin'),
      '2026-03-28T08:00:00Z',
      '2026-03-29T07:00:00Z',
    ],
    [
      'Berlin, the day before fall back → after (CEST → CET)',
      daily('09:00', 'Europe/Berlin'),
      '2026-10-24T07:00:00Z',
      '2026-10-25T08:00:00Z',
    ],
    [
      'New York, across spring forward (EST → EDT)',
      daily('09:00', 'America/New_York'),
      '2026-03-07T14:00:00Z',
      '2026-03-08T13:00:00Z',
    ],
    [
      'New York, across fall back (EDT → EST)',
      daily('09:00', 'America/New_York'),
      '2026-10-31T13:00:00Z',
      '2026-11-01T14:00:00Z',
    ],
    [
      'Berlin, a time the spring day skips runs an hour later that day',
      daily('02:30', 'Europe/Berlin'),
      '2026-03-28T12:00:00Z',
      '2026-03-29T01:30:00Z',
    ],
    [
      'Berlin, a time the autumn day has twice runs the first time',
      daily('02:30', 'Europe/Berlin'),
      '2026-10-24T12:00:00Z',
      '2026-10-25T00:30:00Z',
    ],
    [
      '…and once only: the next is the following day',
      daily('02:30', 'Europe/Berlin'),
      '2026-10-25T00:30:00Z',
      '2026-10-26T01:30:00Z',
    ],
    [
      'New York weekdays, Friday → Monday across spring forward',
      { days: [1, 2, 3, 4, 5], time: '09:00', timeZone: 'America/New_York' },
      '2026-03-06T15:00:00Z',
      '2026-03-09T13:00:00Z',
    ],
    [
      'Berlin Mondays only, a week later across spring forward',
      { days: [1], time: '09:00', timeZone: 'Europe/Berlin' },
      '2026-03-23T08:00:00Z',
      '2026-03-30T07:00:00Z',
    ],
    ['UTC, later the same day', daily('17:45', 'UTC'), '2026-06-01T10:00:00Z', '2026-06-01T17:45:00Z'],
    [
      'Tokyo (no daylight saving), the next local day',
      daily('08:00', 'Asia/Tokyo'),
      '2026-06-01T00:00:00Z',
      '2026-06-01T23:00:00Z',
    ],
  ] as const)('%s', (_name, timing, after, expected) => {
    expect(new Date(nextOccurrence(timing, at(after)) ?? 0).toISOString()).toBe(
      new Date(at(expected)).toISOString(),
    );
  });
});

describe('previousOccurrence', () => {
  it.each([
    [
      'just before the spring-forward day’s time: the day before’s',
      '2026-03-08T12:59:00Z',
      '2026-03-07T14:00:00Z',
    ],
    ['at the time itself', '2026-03-08T13:00:00Z', '2026-03-08T13:00:00Z'],
    ['after fall back', '2026-11-01T15:00:00Z', '2026-11-01T14:00:00Z'],
  ] as const)('New York 09:00 daily, %s', (_name, now, expected) => {
    const found = previousOccurrence(daily('09:00', 'America/New_York'), at(now));
    expect(new Date(found ?? 0).toISOString()).toBe(new Date(at(expected)).toISOString());
  });
});

describe('parsing', () => {
  it.each([
    ['daily', [0, 1, 2, 3, 4, 5, 6]],
    ['weekdays', [1, 2, 3, 4, 5]],
    ['Mon,WED,fri', [1, 3, 5]],
    ['sun', [0]],
    ['mon,funday', undefined],
    ['m', undefined],
    ['', undefined],
  ] as const)('days %j', (text, expected) => {
    expect(parseDays(text)).toEqual(expected);
  });

  it.each([
    ['9:00', '09:00'],
    ['07:30', '07:30'],
    ['23:59', '23:59'],
    ['24:00', undefined],
    ['9am', undefined],
    ['9:5', undefined],
  ] as const)('time %j', (text, expected) => {
    expect(parseClockTime(text)).toBe(expected);
  });

  it('names the days as people wrote them', () => {
    expect(describeDays([0, 1, 2, 3, 4, 5, 6])).toBe('daily');
    expect(describeDays([1, 2, 3, 4, 5])).toBe('weekdays');
    expect(describeDays([1, 3])).toBe('mon, wed');
  });
});
