/** The refusal once a person's runs for the hour are used up (DESIGN "Spending"). */
import type { RefusalDetail } from '../../conversation/thread-output-port.js';

const MINUTE_MS = 60_000;

/** "at 14:32" in the person's zone, else (none, or one this Node does not know) "at 14:32 UTC". */
function atTime(at: number, timeZone: string | undefined): string {
  const clock = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);
  try {
    if (timeZone) return `at ${clock(timeZone)}`;
  } catch {
    // An unknown zone: UTC, below.
  }
  return `at ${clock('UTC')} UTC`;
}

/**
 * The time is rounded up (at 14:31 a run freed at 14:31:20 is refused again), and the countdown
 * counts clock minutes to it, so both agree with the clock on the person's screen.
 */
export function overLimitText(detail: RefusalDetail & { retryAt: number }, now: number): string {
  const { limit } = detail;
  const asked =
    limit === undefined
      ? "You've asked as many questions in the last hour as one person can."
      : `You've asked ${limit} ${limit === 1 ? 'question' : 'questions'} in the last hour, the most one person can.`;
  const shownAt = Math.ceil(detail.retryAt / MINUTE_MS) * MINUTE_MS;
  const minutes = Math.max(1, (shownAt - Math.floor(now / MINUTE_MS) * MINUTE_MS) / MINUTE_MS);
  const countdown = `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `${asked} You can ask again ${atTime(shownAt, detail.timeZone)} (${countdown}).`;
}
