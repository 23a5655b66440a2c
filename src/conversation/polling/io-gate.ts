/**
 * Lets work through one piece per turn of the event loop, so a burst of mentions or finished runs
 * puts the I/O poll phase between any two pieces: Slack's next event (a 3-second ack) never waits.
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
