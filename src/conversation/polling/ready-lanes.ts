import { FifoQueue } from './time-queues.js';

/** Entries due for a poll: on-time ones first, `late` ones only when a late slot is free. */
export function createReadyLanes<T>(lateSlots: number, isLate: (item: T) => boolean) {
  const onTime = new FifoQueue<T>();
  const late = new FifoQueue<T>();
  let lateInFlight = 0;
  return {
    push: (item: T): void => (isLate(item) ? late : onTime).push(item),
    next: (): T | undefined => onTime.shift() ?? (lateInFlight < lateSlots ? late.shift() : undefined),
    started(item: T): void {
      if (isLate(item)) lateInFlight += 1;
    },
    finished(item: T): void {
      if (isLate(item)) lateInFlight -= 1;
    },
  };
}
