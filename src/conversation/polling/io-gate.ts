/**
 * Lets work through one piece per turn of the event loop. A burst of mentions or of finished runs
 * would otherwise run back to back in one I/O phase, and every HTTP request waiting behind it —
 * Slack's next event, whose ack has a 3-second deadline — would wait too. Passing the gate puts
 * the poll phase (reading and acking requests, reading responses) between any two pieces of work.
 */
export interface IoGate {
  /** Resolves on a later turn of the event loop, in arrival order, one waiter per turn. */
  pass(): Promise<void>;
  /** Waiters not yet released. */
  waiting(): number;
}

/** `schedule` defaults to setImmediate: its callbacks run after the I/O poll phase. */
export function createIoGate(schedule: (next: () => void) => void = setImmediate): IoGate {
  const queue: Array<() => void> = [];
  let head = 0;
  let draining = false;

  const releaseNext = (): void => {
    const release = queue[head];
    if (release === undefined) {
      queue.length = 0;
      head = 0;
      draining = false;
      return;
    }
    queue[head] = undefined as unknown as () => void;
    head += 1;
    release();
    schedule(releaseNext);
  };

  return {
    pass() {
      return new Promise<void>((resolve) => {
        queue.push(resolve);
        if (draining) return;
        draining = true;
        schedule(releaseNext);
      });
    },
    waiting: () => queue.length - head,
  };
}
