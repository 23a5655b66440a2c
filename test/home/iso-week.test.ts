import { describe, expect, it } from 'vitest';
import { isoWeekOf } from '../../src/home/iso-week.js';

describe('isoWeekOf', () => {
  it.each([
    ['2026-11-25T12:00:00Z', '2026-W48'],
    ['2026-11-23T00:00:00Z', '2026-W48'], // Monday
    ['2026-11-22T23:59:59Z', '2026-W47'], // Sunday
    ['2027-01-01T00:00:00Z', '2026-W53'], // a Friday: the week of 2026's last Thursday
    ['2024-12-30T00:00:00Z', '2025-W01'], // a Monday in 2025's first week
    ['2021-01-03T00:00:00Z', '2020-W53'],
  ])('%s → %s', (iso, week) => {
    expect(isoWeekOf(Date.parse(iso))).toBe(week);
  });
});
