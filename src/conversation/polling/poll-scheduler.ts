/**
 * One scheduler per process owns every run-status request: at most `slots` in flight, fair
 * round-robin across turns, a client-side timeout per request, backoff with jitter on errors and a
 * per-turn deadline. Costs O(log n) per poll and a single clock sleeper for the earliest wake-up
 * (a retry, a request timeout or a deadline), so thousands of turns need neither timers per turn
 * or per request nor scans.
 */

import type { RunStatusReport } from '../ports.js';
import { DEFAULT_BACKOFF, fullJitterDelay } from './backoff.js';
import type {
  PollEntry,
  PollHandlers,
  PollScheduler,
  PollSchedulerDeps,
  PollVerdict,
} from './poll-contract.js';
import { FifoQueue, TimeHeap } from './time-queues.js';

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

type PollOutcome = { ok: true; report: RunStatusReport } | { ok: false; error: unknown };

/** When the request of one poll times out; stale once the entry's controller is another. */
interface PollTimeout {
  readonly t: Tracked;
  readonly controller: AbortController;
}

// setTimeout overflows above this and fires at once; longer waits just wake early and re-arm.
const MAX_SLEEP_MS = 2_147_483_647;
const noop = (): void => {};
/** Why the sleeper was cancelled: a sooner wake-up replaced it (nobody reads it). */
const REARMED = 'rearmed';

/** Builds the process's poll scheduler; it runs as soon as entries are added. */
export function createPollScheduler(deps: PollSchedulerDeps): PollScheduler {
  const { clock, slots, requestTimeoutMs } = deps;
  const random = deps.random ?? Math.random;
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const minIntervalMs = deps.minIntervalMs ?? 250;
  const lateIntervalMs = deps.lateIntervalMs ?? 30_000;
  const lateSlots = deps.lateSlots ?? Math.max(1, Math.floor(slots / 4));
  const entries = new Map<string, Tracked>();
  const ready = new FifoQueue<Tracked>();
  /** Late entries wait here; they are dispatched only when `ready` is empty. */
  const readyLate = new FifoQueue<Tracked>();
  let lateInFlight = 0;
  const parked = new TimeHeap<Tracked>();
  const deadlines = new TimeHeap<Tracked>();
  const timeouts = new TimeHeap<PollTimeout>();
  const pending = new Set<Promise<void>>();
  let inFlight = 0;
  let stopped = false;
  let pumping = false;
  let pumpAgain = false;
  let wake: { at: number; controller: AbortController } | undefined;

  const isLive = (t: Tracked): boolean => entries.get(t.entry.id) === t;
  const isLate = (t: Tracked): boolean => t.entry.pace === 'late';

  function enqueue(t: Tracked): void {
    t.phase = 'ready';
    (isLate(t) ? readyLate : ready).push(t);
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

  /**
   * Settles with the request's result or, first, the abort of `controller` (a remove, a stop, or
   * the request timeout from the shared sleeper): the slot is freed even when getStatus ignores
   * its signal.
   */
  function requestStatus(t: Tracked, controller: AbortController): Promise<PollOutcome> {
    const { signal } = controller;
    return new Promise<PollOutcome>((resolve) => {
      const onAbort = () => resolve({ ok: false, error: signal.reason });
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (outcome: PollOutcome) => {
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      try {
        Promise.resolve(
          deps.getStatus(t.entry.agentId, t.entry.sessionId, {
            signal,
            timeoutMs: requestTimeoutMs,
            ...(t.entry.teamId !== undefined ? { teamId: t.entry.teamId } : {}),
            ...(t.entry.connection !== undefined ? { connection: t.entry.connection } : {}),
          }),
        ).then(
          (report) => settle({ ok: true, report }),
          (error: unknown) => settle({ ok: false, error }),
        );
      } catch (error) {
        settle({ ok: false, error });
      }
    });
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
    if (isLate(t)) lateInFlight += 1;
    const outcome = await requestStatus(t, controller);
    inFlight -= 1;
    if (isLate(t)) lateInFlight -= 1;
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
        for (let due = parked.popDue(now); due; due = parked.popDue(now)) release(due);
        dispatch(now);
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
    arm();
  }

  function release(t: Tracked): void {
    if (!isLive(t) || t.phase !== 'parked') return;
    enqueue(t);
  }

  /** The next entry to poll: on-time turns first; a late one only with a late slot free. */
  function nextReady(): Tracked | undefined {
    const onTime = ready.shift();
    if (onTime !== undefined) return onTime;
    return lateInFlight < lateSlots ? readyLate.shift() : undefined;
  }

  function dispatch(now: number): void {
    while (inFlight < slots) {
      const t = nextReady();
      if (t === undefined) return;
      if (!isLive(t) || t.phase !== 'ready') continue;
      if (now >= t.entry.deadlineAt) expire(t);
      else track(runPoll(t));
    }
  }

  /** Keeps exactly one clock sleeper, for the earliest retry, request timeout or deadline. */
  function arm(): void {
    parked.discardTop((t) => !isLive(t) || t.phase !== 'parked');
    deadlines.discardTop((t) => !isLive(t));
    timeouts.discardTop((due) => due.t.controller !== due.controller);
    const at = Math.min(parked.peekAt(), deadlines.peekAt(), timeouts.peekAt());
    if (at === Number.POSITIVE_INFINITY) {
      disarm();
      return;
    }
    if (wake !== undefined && wake.at <= at) return;
    disarm();
    const now = clock.now();
    const controller = new AbortController();
    const ms = Math.min(Math.max(0, at - now), MAX_SLEEP_MS);
    wake = { at: now + ms, controller };
    clock.sleep(ms, controller.signal).then(() => {
      if (wake?.controller !== controller) return;
      wake = undefined;
      pump();
    }, noop);
  }

  function disarm(): void {
    // A plain reason: abort() without one would build a DOMException on every re-arm.
    wake?.controller.abort(REARMED);
    wake = undefined;
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
      disarm();
      for (const t of [...entries.values()]) drop(t, 'poll scheduler stopped');
      await Promise.all([...pending]);
    },
  };
}
