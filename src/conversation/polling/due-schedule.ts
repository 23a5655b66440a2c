import type { Clock } from '../../runtime/clock.js';
import { TimeHeap } from './time-queues.js';
import { createWakeTimer } from './wake-timer.js';

/** Many items, each due at its own time, and one sleeper for the earliest: no timer per turn. */
export function createDueSchedule<T>(options: {
  clock: Clock;
  /** The item's time has come; it leaves the schedule (added again for a past time: the next wake-up). */
  onDue(item: T, now: number): void;
  /** Items that no longer need serving (a settled turn): dropped, never handed to onDue. */
  isStale?(item: T): boolean;
}) {
  const { clock, onDue, isStale } = options;
  let heap = new TimeHeap<T>();
  let closed = false;
  const timer = createWakeTimer(clock, serveDue);

  const stale = (item: T): boolean => isStale?.(item) ?? false;

  function serveDue(): void {
    const now = clock.now();
    // Items that onDue adds for `now` or earlier wait for the next wake-up, so this loop ends.
    const due: T[] = [];
    for (let item = heap.popDue(now); item !== undefined; item = heap.popDue(now)) due.push(item);
    for (const item of due) if (!stale(item)) onDue(item, now);
    arm();
  }

  /** Drops stale items from the front (no wake-up for a settled turn); wakes a millisecond ahead at least. */
  function arm(): void {
    heap.discardTop(stale);
    timer.armAt(Math.max(heap.peekAt(), clock.now() + 1));
  }

  return {
    add(at: number, item: T): void {
      if (closed) return;
      heap.push(at, item);
      arm();
    },
    /** Items waiting, stale ones included until they reach the front. */
    size: () => heap.size,
    /** Forgets every item and stops the sleeper; later adds are ignored. */
    close(): void {
      closed = true;
      heap = new TimeHeap<T>();
      timer.disarm();
    },
  };
}
