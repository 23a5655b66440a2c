/**
 * One scheduler per process owns every run-status request: at most `slots` in flight, round-robin
 * across turns, a timeout per request, jittered backoff and a per-turn deadline. O(log n) per poll
 * and one clock sleeper for the earliest wake-up: no timer per turn or request, no scans.
 */

import { createWorkUnderWay } from '../../runtime/work-under-way.js';
import type { PollScheduler, PollSchedulerDeps, PollVerdict } from './poll-contract.js';
import { createPollRoster, isGone, type Tracked } from './poll-roster.js';
import { createPollTiming } from './poll-timing.js';
import { requestStatus } from './status-request.js';

/** Builds the process's poll scheduler; it runs as soon as entries are added. */
export function createPollScheduler(deps: PollSchedulerDeps): PollScheduler {
  const { clock, requestTimeoutMs } = deps;
  const roster = createPollRoster();
  const pending = createWorkUnderWay();
  const timing = createPollTiming(deps, expire, (t) => void pending.track(runPoll(t)));

  function expire(t: Tracked): void {
    // Never tell a thread "stopped waiting" while its answer may be being posted.
    if (t.phase === 'handling') {
      t.deadlineDue = true;
      return;
    }
    roster.drop(t, 'turn deadline passed');
    void pending.track(callHandler(deps, t, 'onDeadline', () => t.handlers.onDeadline()));
  }

  async function runPoll(t: Tracked): Promise<void> {
    const controller = new AbortController();
    t.controller = controller;
    t.phase = 'polling';
    t.lastPollAt = clock.now();
    timing.requestStarted(t, controller);
    const outcome = await requestStatus(deps.getStatus, t.entry, controller.signal, requestTimeoutMs);
    timing.requestEnded(t);
    t.controller = undefined;
    if (isGone(t)) {
      timing.pump();
      return;
    }
    t.errors = outcome.ok ? 0 : t.errors + 1;
    t.phase = 'handling';
    timing.pump(); // the slot is free while the handler works (it may post an answer)
    const verdict = outcome.ok
      ? await callHandler(deps, t, 'onReport', () => t.handlers.onReport(outcome.report))
      : await callHandler(deps, t, 'onError', () => t.handlers.onError(outcome.error, t.errors));
    afterHandler(t, outcome.ok, verdict);
  }

  function afterHandler(t: Tracked, ok: boolean, verdict: PollVerdict): void {
    if (isGone(t)) return;
    if (verdict === 'stop') {
      roster.drop(t, 'stopped by handler');
      return;
    }
    t.phase = 'settling';
    const now = clock.now();
    if (t.deadlineDue || now >= t.entry.deadlineAt) expire(t);
    else timing.pollAgain(t, ok, now);
  }

  return {
    add: (entry, handlers) => timing.follow(roster.join(entry, handlers)),
    remove: roster.remove,
    has: roster.has,
    ids: roster.ids,
    size: roster.size,
    inFlight: timing.inFlight,
    async stop() {
      timing.stop();
      roster.close('poll scheduler stopped');
      await pending.settled();
    },
  };
}

/** Calls one of an entry's handlers in the entry's installation; what it throws is logged, not thrown. */
async function callHandler<T>(deps: PollSchedulerDeps, t: Tracked, name: string, call: () => T | Promise<T>) {
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
