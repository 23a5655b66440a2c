import type { Clock } from '../../runtime/clock.js';
import { DEFAULT_BACKOFF, fullJitterDelay } from './backoff.js';
import type { PollSchedulerDeps } from './poll-contract.js';
import { isGone, type Tracked } from './poll-roster.js';
import { createReadyLanes, TimeHeap } from './time-queues.js';
import { createWakeTimer } from './wake-timer.js';

type Serve = (t: Tracked) => void;

const isLate = (t: Tracked): boolean => t.entry.pace === 'late';
const isParked = (t: Tracked): boolean => t.phase === 'parked';

/** When to poll: ready entries into free slots, on-time before `late`; the next poll at its pace or backoff. */
export function createPollTiming(deps: PollSchedulerDeps, expire: Serve, poll: Serve) {
  const { clock, slots, random = Math.random, backoff = DEFAULT_BACKOFF, minIntervalMs = 250 } = deps;
  const { lateIntervalMs = 30_000, lateSlots = Math.max(1, Math.floor(slots / 4)) } = deps;
  const ready = createReadyLanes<Tracked>(slots, lateSlots, isLate);
  const wakeups = createPollWakeups(clock, deps.requestTimeoutMs, () => pump());
  let stopped = false;
  let pumping = false;
  let pumpAgain = false;

  function enqueue(t: Tracked): void {
    t.phase = 'ready';
    ready.push(t);
  }

  function pump(): void {
    if (stopped) return;
    pumpAgain = true;
    if (pumping) return; // the pump under way goes round once more
    pumping = true;
    try {
      while (pumpAgain) {
        pumpAgain = false;
        const now = clock.now();
        wakeups.serveDue(now, expire, enqueue);
        dispatch(now);
      }
    } finally {
      pumping = false;
    }
    wakeups.arm();
  }

  function dispatch(now: number): void {
    for (let t = ready.next(); t !== undefined; t = ready.next()) {
      if (t.phase !== 'ready') continue;
      if (now >= t.entry.deadlineAt) expire(t);
      else poll(t);
    }
  }

  return {
    /** Polls a new entry as soon as a slot is free; it expires at its deadline. */
    follow(t: Tracked): void {
      enqueue(t);
      wakeups.watchDeadline(t);
      pump();
    },
    /** `t`'s request started under `controller`: it holds a slot until `requestEnded`, and may time out. */
    requestStarted(t: Tracked, controller: AbortController): void {
      wakeups.watchRequest(t, controller);
      ready.started(t);
    },
    requestEnded: ready.finished,
    pollAgain(t: Tracked, ok: boolean, now: number): void {
      // A long poll that answered late is due again at once; an instant `loading` waits a little.
      const interval = isLate(t) ? lateIntervalMs : minIntervalMs;
      const at = ok ? t.lastPollAt + interval : now + fullJitterDelay(t.errors, backoff, random);
      if (at <= now) enqueue(t);
      else wakeups.park(at, t);
      pump();
    },
    pump,
    inFlight: ready.inFlight,
    stop(): void {
      stopped = true;
      wakeups.disarm();
    },
  };
}

/** Retry times, deadlines and request timeouts, each in a heap, and one clock sleeper for the earliest. */
export function createPollWakeups(clock: Clock, requestTimeoutMs: number, onWake: () => void) {
  const parked = new TimeHeap<Tracked>();
  const deadlines = new TimeHeap<Tracked>();
  // A request's timeout is stale once its entry's controller is another (the request settled).
  const timeouts = new TimeHeap<{ t: Tracked; controller: AbortController }>();
  const timer = createWakeTimer(clock, onWake);
  const timedOut = () =>
    new DOMException(`status request timed out after ${requestTimeoutMs} ms`, 'TimeoutError');

  return {
    park(at: number, t: Tracked): void {
      t.phase = 'parked';
      parked.push(at, t);
    },
    watchDeadline: (t: Tracked) => deadlines.push(t.entry.deadlineAt, t),
    /** Aborts the request `t` started under `controller` once requestTimeoutMs passed, unless it settled. */
    watchRequest: (t: Tracked, controller: AbortController) =>
      timeouts.push(t.lastPollAt + requestTimeoutMs, { t, controller }),
    /** Serves what is due at `now`: deadlines first, then request timeouts, then parked entries. */
    serveDue(now: number, expire: Serve, unpark: Serve): void {
      for (let due = deadlines.popDue(now); due; due = deadlines.popDue(now)) if (!isGone(due)) expire(due);
      for (let due = timeouts.popDue(now); due; due = timeouts.popDue(now)) {
        if (due.t.controller === due.controller) due.controller.abort(timedOut());
      }
      for (let due = parked.popDue(now); due; due = parked.popDue(now)) if (isParked(due)) unpark(due);
    },
    /** The one sleeper wakes for the earliest retry, request timeout or deadline. */
    arm(): void {
      parked.discardTop((t) => !isParked(t));
      deadlines.discardTop(isGone);
      timeouts.discardTop((due) => due.t.controller !== due.controller);
      timer.armAt(Math.min(parked.peekAt(), deadlines.peekAt(), timeouts.peekAt()));
    },
    disarm: () => timer.disarm(),
  };
}
