import { type Clock, systemClock } from '../../src/runtime/clock.js';

/**
 * The bot's schedule clock in the sandbox (`startBot`'s `scheduleClock`): real time plus an offset
 * that only grows. `/schedule --now` moves it to the due minute, so the ticker asks at its next
 * round instead of at the real minute; the runs keep the bot's real clock. A sleep on this clock
 * ends when its time has passed on it: a jump past a sleeper's wake-up wakes it at once.
 */
export interface ScheduleClock extends Clock {
  /** Moves the clock forward to `at` (never back). */
  jumpTo(at: number): void;
}

export function createScheduleClock(base: Clock = systemClock): ScheduleClock {
  let offset = 0;
  const sleepers = new Set<{ at: number; wake: () => void }>();
  const now = () => base.now() + offset;
  return {
    now,
    sleep(ms, signal) {
      const stop = new AbortController();
      const onAbort = () => stop.abort(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const sleeper = { at: now() + ms, wake: () => stop.abort('jumped') };
      sleepers.add(sleeper);
      return base
        .sleep(ms, stop.signal)
        .then(
          () => undefined,
          (error: unknown) => {
            if (signal?.aborted) throw error;
            // Woken by a jump past its wake-up: the sleep is over.
          },
        )
        .finally(() => {
          sleepers.delete(sleeper);
          signal?.removeEventListener('abort', onAbort);
        });
    },
    jumpTo(at) {
      offset = Math.max(offset, at - base.now());
      for (const sleeper of sleepers) if (sleeper.at <= now()) sleeper.wake();
    },
  };
}

/** `HH:MM` in `timeZone` of a minute at least `marginMs` after `at`, and that minute's instant. */
export function minuteAhead(at: number, timeZone: string, marginMs = 10_000): { hhmm: string; at: number } {
  const minute = Math.ceil((at + marginMs) / 60_000) * 60_000;
  const hhmm = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(minute);
  return { hhmm, at: minute };
}
