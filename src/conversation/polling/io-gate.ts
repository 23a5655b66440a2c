import { FifoQueue } from './time-queues.js';

/**
 * Lets work through one piece per turn of the event loop (setImmediate runs after the I/O poll
 * phase), so in a burst of mentions or finished runs Slack's next event (a 3-second ack) never waits.
 */
export function createIoGate(schedule: (next: () => void) => void = setImmediate) {
  const queue = new FifoQueue<() => void>();
  let waiting = 0;
  let draining = false;

  const releaseNext = (): void => {
    const release = queue.shift();
    if (release === undefined) {
      draining = false;
      return;
    }
    waiting -= 1;
    release();
    schedule(releaseNext);
  };

  return {
    /** Resolves on a later turn of the event loop, in arrival order, one waiter per turn. */
    pass(): Promise<void> {
      return new Promise<void>((resolve) => {
        queue.push(resolve);
        waiting += 1;
        if (draining) return;
        draining = true;
        schedule(releaseNext);
      });
    },
    /** Waiters not yet released. */
    waiting: () => waiting,
  };
}

export type IoGate = ReturnType<typeof createIoGate>;
