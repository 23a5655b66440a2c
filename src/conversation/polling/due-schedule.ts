/** Many items, each due at its own time, and one sleeper for the earliest: no timer per turn. */

import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import { TimeHeap } from './time-queues.js';

export interface DueScheduleOptions<T> {
  clock: Clock;
  /** The item's time has come; it leaves the schedule (added again for a past time: the next wake-up). */
  onDue(item: T, now: number): void;
  /** Items that no longer need serving (a settled turn): dropped, never handed to onDue. */
  isStale?(item: T): boolean;
}

export function createDueSchedule<T>(options: DueScheduleOptions<T>) {
  const { clock, onDue, isStale } = options;
  let heap = new TimeHeap<T>();
  let count = 0;
  let closed = false;
  let running = false;
  /** When the sleeper wakes, and how to wake it sooner (an earlier item, or close). */
  let wakeAt = Number.POSITIVE_INFINITY;
  let wake: AbortController | undefined;

  const stale = (item: T): boolean => isStale?.(item) ?? false;

  function serveDue(now: number): void {
    // Items that onDue adds for `now` or earlier wait for the next round, so this loop ends.
    const due: T[] = [];
    for (let item = heap.popDue(now); item !== undefined; item = heap.popDue(now)) due.push(item);
    count -= due.length;
    for (const item of due) if (!stale(item)) onDue(item, now);
  }

  /** Drops stale items from the front, so the sleeper does not wake for a settled turn. */
  function discardStaleFront(): void {
    heap.discardTop((item) => {
      if (!stale(item)) return false;
      count -= 1;
      return true;
    });
  }

  async function run(): Promise<void> {
    try {
      while (!closed) {
        serveDue(clock.now());
        discardStaleFront();
        const at = heap.peekAt();
        if (at === Number.POSITIVE_INFINITY) return;
        wakeAt = at;
        wake = new AbortController();
        await clock.sleep(Math.max(1, at - clock.now()), wake.signal).catch(() => undefined);
        wake = undefined;
        wakeAt = Number.POSITIVE_INFINITY;
      }
    } finally {
      running = false;
    }
  }

  return {
    add(at: number, item: T): void {
      if (closed) return;
      heap.push(at, item);
      count += 1;
      if (!running) {
        running = true;
        void run();
      } else if (at < wakeAt) {
        wake?.abort(DONE_WAITING);
      }
    },
    /** Items waiting, stale ones included until they reach the front. */
    size: () => count,
    /** Forgets every item and stops the sleeper; later adds are ignored. */
    close(): void {
      closed = true;
      heap = new TimeHeap<T>();
      count = 0;
      wake?.abort(DONE_WAITING);
    },
  };
}
