import { describe, expect, it } from 'vitest';
import {
  alertWindow,
  parseTimeRange,
  zoneOffsetMinutes,
} from '../../../src/conversation/context/time-range.js';

// Monday 2026-11-23 13:00 UTC = 08:00 in New York (UTC-5), 14:00 in Berlin (UTC+1).
const NOW = Date.parse('2026-11-23T13:00:00Z');
const NY = 'America/New_York';
const range = (text: string, timeZone: string | undefined = NY, now = NOW) =>
  parseTimeRange(text, now, timeZone);

describe('parseTimeRange', () => {
  it.each([
    ['in the last 2 hours', '2026-11-23T11:00:00Z', '2026-11-23T13:00:00Z'],
    ['past 45 minutes', '2026-11-23T12:15:00Z', '2026-11-23T13:00:00Z'],
    // "since 9:00" at 8:00 means yesterday 9:00 (its most recent past occurrence).
    ['since 9:00', '2026-11-22T14:00:00Z', '2026-11-23T13:00:00Z'],
    ['since 7:30', '2026-11-23T12:30:00Z', '2026-11-23T13:00:00Z'],
    ['between 9:00 and 9:30 yesterday', '2026-11-22T14:00:00Z', '2026-11-22T14:30:00Z'],
    ['from 9:00 to 9:30 yesterday', '2026-11-22T14:00:00Z', '2026-11-22T14:30:00Z'],
    ['today', '2026-11-23T05:00:00Z', '2026-11-23T13:00:00Z'],
    ['yesterday', '2026-11-22T05:00:00Z', '2026-11-23T05:00:00Z'],
    ['last week', '2026-11-16T05:00:00Z', '2026-11-23T13:00:00Z'],
    ['from nov 1 to nov 15', '2026-11-01T04:00:00Z', '2026-11-16T05:00:00Z'],
  ])('"%s" in New York → %s … %s', (text, startTime, endTime) => {
    expect(range(`what happened ${text}?`)).toMatchObject({ kind: 'range', range: { startTime, endTime } });
  });

  it("reads the same words in the asker's zone", () => {
    expect(range('since 9:00', 'Europe/Berlin')).toMatchObject({
      range: { startTime: '2026-11-23T08:00:00Z' },
    });
    expect(range('since 9:00', 'UTC')).toMatchObject({ range: { startTime: '2026-11-23T09:00:00Z' } });
    expect(parseTimeRange('since 9:00', NOW)).toMatchObject({ range: { startTime: '2026-11-23T09:00:00Z' } });
    // An unknown zone name is read as UTC rather than failing the turn.
    expect(range('since 9:00', 'Mars/Olympus')).toMatchObject({
      range: { startTime: '2026-11-23T09:00:00Z' },
    });
  });

  it('cuts an end in the future to now', () => {
    expect(range('from 7:00 to 11:00', NY)).toMatchObject({
      range: { startTime: '2026-11-23T12:00:00Z', endTime: '2026-11-23T13:00:00Z' },
    });
  });

  it.each([
    ['from 5pm to 3pm', 'reversed'],
    ['in 2 hours', 'future'],
    ['tomorrow', 'future'],
    ['next week', 'future'],
    ['in the last 90 days', 'too-long'],
    ['from 2026-01-01 to 2026-03-01', 'too-long'],
  ])('refuses "%s" (%s)', (text, reason) => {
    expect(range(text)).toMatchObject({ kind: 'refused', reason });
  });

  it.each(['why is checkout slow?', 'why now?', 'error 500 on service 2', 'since the blorp of the flux', ''])(
    'finds no range in "%s"',
    (text) => {
      expect(range(text)).toEqual({ kind: 'none' });
    },
  );

  it('never gives a start after its end or a range past now', () => {
    for (const text of ['since monday', 'at 14:00', 'this morning', 'last 24 hours', 'since 23:59']) {
      const result = range(text);
      if (result.kind !== 'range') continue;
      expect(Date.parse(result.range.startTime)).toBeLessThan(Date.parse(result.range.endTime));
      expect(Date.parse(result.range.endTime)).toBeLessThanOrEqual(NOW);
    }
  });
});

describe('zoneOffsetMinutes', () => {
  it('knows daylight saving time', () => {
    expect(zoneOffsetMinutes(NY, Date.parse('2026-07-01T12:00:00Z'))).toBe(-240);
    expect(zoneOffsetMinutes(NY, NOW)).toBe(-300);
    expect(zoneOffsetMinutes('Asia/Kolkata', NOW)).toBe(330);
    expect(zoneOffsetMinutes('UTC', NOW)).toBe(0);
    expect(zoneOffsetMinutes(undefined, NOW)).toBe(0);
  });
});

describe('alertWindow', () => {
  it("runs from the root's time minus the look-back to now", () => {
    expect(alertWindow('1795435200.000100', NOW, 60)).toEqual({
      startTime: '2026-11-23T11:00:00Z',
      endTime: '2026-11-23T13:00:00Z',
    });
  });

  it('is at most 31 days long for an old thread, and undefined for a bad ts', () => {
    const old = alertWindow(String(NOW / 1000 - 90 * 86_400), NOW, 60);
    expect(Date.parse(old?.endTime ?? '') - Date.parse(old?.startTime ?? '')).toBe(31 * 86_400_000);
    expect(alertWindow('nope', NOW, 60)).toBeUndefined();
  });
});
