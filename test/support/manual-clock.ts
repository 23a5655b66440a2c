import { abortReason, type Clock } from '../../src/runtime/clock.js';

/** A clock that only moves when a test moves it. */
export interface ManualClock extends Clock {
  /**
   * Moves time forward and resolves every sleeper due by then, in time order. Continuations run
   * later (after the caller yields) and all see the final time: use `advanceAsync` when the code
   * under test sleeps again or reads the time in between.
   */
  advance(ms: number): void;
  /**
   * Moves time forward one due sleeper at a time: time is set to that sleeper's wake-up time,
   * it is resolved, and pending callbacks run before the next one — so code that sleeps again
   * within the window is woken too, deterministically.
   */
  advanceAsync(ms: number): Promise<void>;
  /** Lets pending promise callbacks run without moving time. */
  flush(): Promise<void>;
  /** How many sleeps are waiting. */
  pendingSleepers(): number;
}

interface Sleeper {
  at: number;
  resolve: () => void;
}

/** Runs every queued microtask (and anything they queue) before resolving. */
function flushCallbacks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A deterministic clock for tests: `now()` starts at `start` (default 0). */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  // Sorted by wake-up time; inserting after equals keeps equal times in the order they were asked for.
  const sleepers: Sleeper[] = [];

  const insert = (sleeper: Sleeper): void => {
    let lo = 0;
    let hi = sleepers.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = sleepers[mid] as Sleeper;
      if (other.at <= sleeper.at) lo = mid + 1;
      else hi = mid;
    }
    sleepers.splice(lo, 0, sleeper);
  };

  const resolveNext = (target: number): boolean => {
    const next = sleepers[0];
    if (next === undefined || next.at > target) return false;
    sleepers.shift();
    now = Math.max(now, next.at);
    next.resolve();
    return true;
  };

  return {
    now: () => now,
    sleep(ms: number, signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (ms <= 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const sleeper: Sleeper = { at: now + ms, resolve };
        const onAbort = (): void => {
          const index = sleepers.indexOf(sleeper);
          if (index >= 0) sleepers.splice(index, 1);
          reject(abortReason(signal as AbortSignal));
        };
        sleeper.resolve = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        insert(sleeper);
      });
    },
    advance(ms: number): void {
      const target = now + ms;
      while (resolveNext(target)) {
        // each call resolves one sleeper
      }
      now = target;
    },
    async advanceAsync(ms: number): Promise<void> {
      const target = now + ms;
      await flushCallbacks();
      while (resolveNext(target)) await flushCallbacks();
      now = target;
      await flushCallbacks();
    },
    flush: flushCallbacks,
    pendingSleepers: () => sleepers.length,
  };
}
