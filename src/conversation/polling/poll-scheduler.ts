/**
 * One scheduler per process owns every run-status request: at most `slots` in flight, round-robin
 * across turns, a timeout per request, jittered backoff and a per-turn deadline. O(log n) per poll
 * and one clock sleeper for the earliest wake-up: no timer per turn or request, no scans.
 */

import { DEFAULT_BACKOFF, fullJitterDelay } from './backoff.js';
import type {
  PollEntry,
  PollHandlers,
  PollScheduler,
  PollSchedulerDeps,
  PollVerdict,
} from './poll-contract.js';
import { requestStatus } from './status-request.js';
import { createReadyLanes, TimeHeap } from './time-queues.js';
import { createWakeTimer } from './wake-timer.js';

type Phase = 'ready' | 'parked' | 'polling' | 'handling' | 'settling' | 'gone';

interface Tracked {
  readonly entry: PollEntry;
  readonly handlers: PollHandlers;
  phase: Phase;
  lastPollAt: number;
  errors: number;
  /** The deadline passed while a handler ran: expire once it returns. */
  deadlineDue: boolean;
  controller?: AbortController | undefined;
}

/** When the request of one poll times out; stale once the entry's controller is another. */
interface PollTimeout {
  readonly t: Tracked;
  readonly controller: AbortController;
}

const noop = (): void => {};
const isLate = (t: Tracked): boolean => t.entry.pace === 'late';

/** Builds the process's poll scheduler; it runs as soon as entries are added. */
export function createPollScheduler(deps: PollSchedulerDeps): PollScheduler {
  const { clock, slots, requestTimeoutMs } = deps;
  const random = deps.random ?? Math.random;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const minIntervalMs = deps.minIntervalMs ?? 250;
  const lateIntervalMs = deps.lateIntervalMs ?? 30_000;
  const lateSlots = deps.lateSlots ?? Math.max(1, Math.floor(slots / 4));
  const entries = new Map<string, Tracked>();
  const ready = createReadyLanes<Tracked>(lateSlots, isLate);
  const parked = new TimeHeap<Tracked>();
  const deadlines = new TimeHeap<Tracked>();
  const timeouts = new TimeHeap<PollTimeout>();
  const pending = new Set<Promise<void>>();
  let inFlight = 0;
  let stopped = false;
  let pumping = false;
  let pumpAgain = false;
  const timer = createWakeTimer(clock, () => pump());

  const isLive = (t: Tracked): boolean => entries.get(t.entry.id) === t;
  const isParked = (t: Tracked): boolean => isLive(t) && t.phase === 'parked';

  function enqueue(t: Tracked): void {
    t.phase = 'ready';
    ready.push(t);
  }

  const track = (work: Promise<void>): void => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  async function callSafely<T>(t: Tracked, name: string, call: () => T | Promise<T>): Promise<T | undefined> {
    try {
      // In the turn's own installation: the pump runs in whatever scope first woke it.
      const run = async () => call();
      const { teamId } = t.entry;
      return await (deps.runFor && teamId !== undefined ? deps.runFor(teamId, run) : run());
    } catch (err) {
      // A handler's bug must not stop the polling of every other turn.
      const fields = { err, turnId: t.entry.id, sessionId: t.entry.sessionId };
      deps.logger?.error(fields, `poll scheduler: ${name} threw`);
      return undefined;
    }
  }

  function drop(t: Tracked, reason: string): void {
    if (isLive(t)) entries.delete(t.entry.id);
    t.phase = 'gone';
    if (t.controller) t.controller.abort(new DOMException(reason, 'AbortError'));
  }

  function expire(t: Tracked): void {
    // Never tell a thread "stopped waiting" while its answer may be being posted.
    if (t.phase === 'handling') {
      t.deadlineDue = true;
      return;
    }
    drop(t, 'turn deadline passed');
    track(callSafely(t, 'onDeadline', () => t.handlers.onDeadline()).then(noop));
  }

  function timeOut(due: PollTimeout): void {
    if (due.t.controller !== due.controller) return;
    due.controller.abort(
      new DOMException(`status request timed out after ${requestTimeoutMs} ms`, 'TimeoutError'),
    );
  }

  async function runPoll(t: Tracked): Promise<void> {
    const controller = new AbortController();
    t.controller = controller;
    t.phase = 'polling';
    t.lastPollAt = clock.now();
    timeouts.push(t.lastPollAt + requestTimeoutMs, { t, controller });
    inFlight += 1;
    ready.started(t);
    const outcome = await requestStatus(deps.getStatus, t.entry, controller, requestTimeoutMs);
    inFlight -= 1;
    ready.finished(t);
    t.controller = undefined;
    if (!isLive(t) || stopped) {
      pump();
      return;
    }
    t.errors = outcome.ok ? 0 : t.errors + 1;
    t.phase = 'handling';
    pump(); // the slot is free while the handler works (it may post an answer)
    const verdict = outcome.ok
      ? await callSafely(t, 'onReport', () => t.handlers.onReport(outcome.report))
      : await callSafely(t, 'onError', () => t.handlers.onError(outcome.error, t.errors));
    afterHandler(t, outcome.ok, verdict);
  }

  function afterHandler(t: Tracked, ok: boolean, verdict: PollVerdict): void {
    if (!isLive(t) || stopped) return;
    if (verdict === 'stop') {
      drop(t, 'stopped by handler');
      return;
    }
    t.phase = 'settling';
    const now = clock.now();
    if (t.deadlineDue || now >= t.entry.deadlineAt) {
      expire(t);
      return;
    }
    // A long poll that answered late is due again at once; an instant `loading` waits a little.
    const interval = isLate(t) ? lateIntervalMs : minIntervalMs;
    const at = ok ? t.lastPollAt + interval : now + fullJitterDelay(t.errors, backoff, random);
    if (at <= now) {
      enqueue(t);
    } else {
      t.phase = 'parked';
      parked.push(at, t);
    }
    pump();
  }

  function pump(): void {
    if (stopped) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        const now = clock.now();
        for (let due = deadlines.popDue(now); due; due = deadlines.popDue(now)) if (isLive(due)) expire(due);
        for (let due = timeouts.popDue(now); due; due = timeouts.popDue(now)) timeOut(due);
        for (let due = parked.popDue(now); due; due = parked.popDue(now)) if (isParked(due)) enqueue(due);
        dispatch(now);
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
    arm();
  }

  function dispatch(now: number): void {
    while (inFlight < slots) {
      const t = ready.next();
      if (t === undefined) return;
      if (!isLive(t) || t.phase !== 'ready') continue;
      if (now >= t.entry.deadlineAt) expire(t);
      else track(runPoll(t));
    }
  }

  /** The one sleeper wakes for the earliest retry, request timeout or deadline. */
  function arm(): void {
    parked.discardTop((t) => !isParked(t));
    deadlines.discardTop((t) => !isLive(t));
    timeouts.discardTop((due) => due.t.controller !== due.controller);
    timer.armAt(Math.min(parked.peekAt(), deadlines.peekAt(), timeouts.peekAt()));
  }

  return {
    add(entry, handlers) {
      if (stopped) throw new Error('poll scheduler is stopped');
      const existing = entries.get(entry.id);
      if (existing) drop(existing, 'replaced');
      const t: Tracked = {
        entry: { ...entry },
        handlers,
        phase: 'ready',
        lastPollAt: 0,
        errors: 0,
        deadlineDue: false,
      };
      entries.set(entry.id, t);
      enqueue(t);
      deadlines.push(entry.deadlineAt, t);
      pump();
    },
    remove(id) {
      const t = entries.get(id);
      if (t === undefined) return false;
      drop(t, 'removed');
      return true;
    },
    has: (id) => entries.has(id),
    ids: () => [...entries.keys()],
    size: () => entries.size,
    inFlight: () => inFlight,
    async stop() {
      stopped = true;
      timer.disarm();
      for (const t of [...entries.values()]) drop(t, 'poll scheduler stopped');
      await Promise.all([...pending]);
    },
  };
}
