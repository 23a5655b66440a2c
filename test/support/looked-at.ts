/**
 * What the footer and the receipt say about a run's window, written out here independently of the
 * bot's formatter. A window inside one UTC day reads "13:05–14:05 UTC (2026-11-23)"; one that spans
 * midnight names both days. Tests that ask "in the last hour" near 00:00 UTC get the second form, so
 * they must accept both.
 */
const DAY = String.raw`\d{4}-\d\d-\d\d`;
const TIME = String.raw`\d\d:\d\d`;

/** Either form of the window, as a regular-expression source (no anchors). */
export const WINDOW_PATTERN = `(?:${TIME}–${TIME} UTC \\(${DAY}\\)|${DAY} ${TIME} – ${DAY} ${TIME} UTC)`;

/** The exact window text for two ISO instants, in the form their days call for. */
export function windowText(startIso: string, endIso: string): string {
  const [startDay, startTime] = [startIso.slice(0, 10), startIso.slice(11, 16)];
  const [endDay, endTime] = [endIso.slice(0, 10), endIso.slice(11, 16)];
  return startDay === endDay
    ? `${startTime}–${endTime} UTC (${startDay})`
    : `${startDay} ${startTime} – ${endDay} ${endTime} UTC`;
}
