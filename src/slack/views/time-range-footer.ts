import type { TimeRange } from '../../conversation/ports.js';

/** "2026-11-23 13:05" of an ISO timestamp, in UTC. */
const minute = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');

/** The footer line "Looked at 13:05–14:05 UTC (2026-11-23)" (both dates when it spans days), if valid. */
export function describeTimeRange(range: TimeRange | undefined): string[] {
  if (!range || Number.isNaN(Date.parse(range.startTime)) || Number.isNaN(Date.parse(range.endTime)))
    return [];
  const [startDay, startTime] = minute(range.startTime).split(' ');
  const [endDay, endTime] = minute(range.endTime).split(' ');
  return [
    startDay === endDay
      ? `Looked at ${startTime}–${endTime} UTC (${startDay})`
      : `Looked at ${startDay} ${startTime} – ${endDay} ${endTime} UTC`,
  ];
}
