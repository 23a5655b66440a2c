import sinon from 'sinon';
import { describe, expect, it } from 'vitest';
import { fullJitterDelay } from '../../../src/conversation/polling/backoff.js';
import type {
  PollHandlers,
  PollScheduler,
  PollSchedulerDeps,
} from '../../../src/conversation/polling/poll-contract.js';
import { createPollScheduler } from '../../../src/conversation/polling/poll-scheduler.js';
import type { RunStatusReport } from '../../../src/conversation/ports.js';
import type { Logger } from '../../../src/runtime/logger.js';
import { createManualClock, type ManualClock } from '../../support/manual-clock.js';

interface Call {
  sessionId: string;
  /** 1-based count of polls of this session so far. */
  n: number;
  signal: AbortSignal;
  timeoutMs: number;
}

type Respond = (call: Call) => Promise<RunStatusReport>;

interface Harness {
  clock: ManualClock;
  scheduler: PollScheduler;
  /** Every status request, in the order they were made. */
  polls: { id: string; at: number }[];
  signals: AbortSignal[];
  maxInFlight(): number;
}

const loading: RunStatusReport = { status: 'loading', totalSteps: 1 };

function harness(
  respond: (clock: ManualClock) => Respond,
  options: Partial<PollSchedulerDeps> = {},
): Harness {
  const clock = createManualClock();
  const answer = respond(clock);
  const polls: { id: string; at: number }[] = [];
  const signals: AbortSignal[] = [];
  const counts = new Map<string, number>();
  let current = 0;
  let max = 0;
  const getStatus: PollSchedulerDeps['getStatus'] = async (_agentId, sessionId, { signal, timeoutMs }) => {
    const n = (counts.get(sessionId) ?? 0) + 1;
    counts.set(sessionId, n);
    polls.push({ id: sessionId, at: clock.now() });
    signals.push(signal);
    current += 1;
    max = Math.max(max, current);
    try {
      return await answer({ sessionId, n, signal, timeoutMs });
    } finally {
      current -= 1;
    }
  };
  const scheduler = createPollScheduler({
    getStatus,
    slots: 10,
    requestTimeoutMs: 60_000,
    clock,
    minIntervalMs: 0,
    random: () => 0.5,
    ...options,
  });
  return { clock, scheduler, polls, signals, maxInFlight: () => max };
}

/** A long poll: answers `report` after `ms` of clock time, honouring the abort signal. */
const answerAfter =
  (ms: number, report: RunStatusReport) =>
  (clock: ManualClock): Respond =>
  (call) =>
    clock.sleep(ms, call.signal).then(() => report);

const keepPolling = (): PollHandlers => ({ onReport: () => {}, onError: () => {}, onDeadline: () => {} });

const entry = (id: string, deadlineAt = 1e12) => ({ id, agentId: 'agent', sessionId: id, deadlineAt });

function countBy(polls: { id: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { id } of polls) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

function fakeLogger(): Logger & { error: sinon.SinonSpy } {
  const logger = {
    debug: sinon.spy(),
    info: sinon.spy(),
    warn: sinon.spy(),
    error: sinon.spy(),
    child: () => logger,
  };
  return logger;
}

describe('createPollScheduler: slots and fairness', () => {
  it('never has more than `slots` requests in flight (1,000 entries, 10 slots)', async () => {
    const h = harness(answerAfter(100, loading), { slots: 10 });
    for (let i = 0; i < 1_000; i += 1) h.scheduler.add(entry(`e${i}`), keepPolling());
    expect(h.scheduler.inFlight()).toBe(10);
    await h.clock.advanceAsync(10_000);
    expect(h.maxInFlight()).toBe(10);
    expect(h.scheduler.inFlight()).toBe(10);
    // 10 slots × 100 polls of 100 ms: every entry exactly once, in the order they were added.
    expect(h.polls.length).toBe(1_010);
    expect(new Set(countBy(h.polls.slice(0, 1_000)).values())).toEqual(new Set([1]));
    expect(h.polls.slice(0, 1_000).map((p) => p.id)).toEqual(
      Array.from({ length: 1_000 }, (_, i) => `e${i}`),
    );
    await h.scheduler.stop();
  });

  it('is round-robin: poll counts differ by at most one, and no entry is polled twice per round', async () => {
    const h = harness(answerAfter(10, loading), { slots: 7 });
    for (let i = 0; i < 50; i += 1) h.scheduler.add(entry(`e${i}`), keepPolling());
    await h.clock.advanceAsync(1_234);
    const counts = [...countBy(h.polls).values()];
    expect(counts.length).toBe(50);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    for (let start = 0; start + 50 <= h.polls.length; start += 50) {
      expect(new Set(h.polls.slice(start, start + 50).map((p) => p.id)).size).toBe(50);
    }
    await h.scheduler.stop();
  });

  it('handles 5,000 entries with 40 slots using one sleeper, not one per entry', async () => {
    const h = harness(() => () => Promise.reject(new Error('down')), {
      slots: 40,
      backoff: { baseMs: 10_000, maxMs: 10_000 },
    });
    for (let i = 0; i < 5_000; i += 1) h.scheduler.add(entry(`e${i}`), keepPolling());
    await h.clock.flush();
    // Every entry failed once and is parked: only the scheduler's single wake-up sleeps.
    expect(h.polls.length).toBe(5_000);
    expect(h.maxInFlight()).toBeLessThanOrEqual(40);
    expect(h.scheduler.inFlight()).toBe(0);
    expect(h.clock.pendingSleepers()).toBe(1);
    await h.clock.advanceAsync(5_000); // random 0.5 × 10 s: everyone is due again now
    expect(h.polls.length).toBe(10_000);
    await h.scheduler.stop();
    expect(h.clock.pendingSleepers()).toBe(0);
  });
});

describe('createPollScheduler: pacing', () => {
  it('re-polls at once after a `timeout` long poll, even with a minimum interval', async () => {
    const h = harness(answerAfter(30_000, { status: 'timeout' }), { minIntervalMs: 250 });
    h.scheduler.add(entry('a'), keepPolling());
    await h.clock.advanceAsync(90_000);
    expect(h.polls.map((p) => p.at)).toEqual([0, 30_000, 60_000, 90_000]);
    await h.scheduler.stop();
  });

  it('spaces polls of an entry that answers `loading` instantly by the minimum interval', async () => {
    const h = harness(() => async () => loading, { minIntervalMs: 250 });
    h.scheduler.add(entry('a'), keepPolling());
    await h.clock.advanceAsync(1_000);
    expect(h.polls.map((p) => p.at)).toEqual([0, 250, 500, 750, 1_000]);
    await h.scheduler.stop();
  });
});

describe('createPollScheduler: errors and backoff', () => {
  it('backs off exponentially with full jitter, and resets after a success', async () => {
    // Five failures, a success, then failures again.
    const h = harness(() => async (call) => {
      if (call.n === 6) return loading;
      throw Object.assign(new Error('unavailable'), { code: 'E_UNAVAILABLE' });
    });
    const attempts: number[] = [];
    h.scheduler.add(entry('a'), { ...keepPolling(), onError: (_e, attempt) => void attempts.push(attempt) });
    await h.clock.advanceAsync(20_000);
    const times = h.polls.map((p) => p.at);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    // random 0.5 of min(30 s, 500 ms · 2^(n−1)): 250, 500, 1000, 2000, 4000; success: at once; 250 …
    expect(gaps.slice(0, 7)).toEqual([250, 500, 1_000, 2_000, 4_000, 0, 250]);
    expect(attempts.slice(0, 6)).toEqual([1, 2, 3, 4, 5, 1]);
    await h.scheduler.stop();
  });

  it('keeps delays within the full-jitter bounds', () => {
    const options = { baseMs: 500, maxMs: 30_000 };
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
      expect(fullJitterDelay(attempt, options, () => 0)).toBe(0);
      expect(fullJitterDelay(attempt, options, () => 0.999_999)).toBe(ceiling - 1);
    }
    expect(fullJitterDelay(1_000, options, () => 0.5)).toBe(15_000);
  });

  it('parks a failing entry without holding a slot', async () => {
    const h = harness(
      (clock) => (call) =>
        call.sessionId === 'failing'
          ? Promise.reject(new Error('down'))
          : answerAfter(10, loading)(clock)(call),
      { slots: 1, backoff: { baseMs: 2_000, maxMs: 2_000 } },
    );
    h.scheduler.add(entry('failing'), keepPolling());
    h.scheduler.add(entry('healthy'), keepPolling());
    await h.clock.advanceAsync(999);
    const counts = countBy(h.polls);
    expect(counts.get('failing')).toBe(1);
    expect(counts.get('healthy')).toBeGreaterThanOrEqual(90);
    expect(h.maxInFlight()).toBe(1);
    await h.scheduler.stop();
  });

  it('aborts a hung request at the client-side timeout and reports it as an error', async () => {
    const timeouts: number[] = [];
    const h = harness(
      () => (call) => {
        timeouts.push(call.timeoutMs);
        return new Promise<RunStatusReport>(() => {}); // hangs, ignoring its signal
      },
      { slots: 1, requestTimeoutMs: 1_000 },
    );
    const errors: { error: unknown; at: number }[] = [];
    h.scheduler.add(entry('a'), {
      ...keepPolling(),
      onError: (error) => {
        errors.push({ error, at: h.clock.now() });
        return 'stop';
      },
    });
    await h.clock.advanceAsync(999);
    expect(errors).toEqual([]);
    expect(h.scheduler.inFlight()).toBe(1);
    await h.clock.advanceAsync(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ at: 1_000, error: { name: 'TimeoutError' } });
    expect(timeouts).toEqual([1_000]);
    expect(h.signals[0]?.aborted).toBe(true);
    expect(h.scheduler.inFlight()).toBe(0);
  });

  it('logs a throwing handler and keeps polling', async () => {
    const logger = fakeLogger();
    const h = harness(answerAfter(10, loading), { logger });
    h.scheduler.add(entry('a'), {
      ...keepPolling(),
      onReport: () => {
        throw new Error('handler bug');
      },
    });
    await h.clock.advanceAsync(35);
    expect(h.polls).toHaveLength(4);
    expect(logger.error.callCount).toBe(3);
    expect(logger.error.firstCall.args[0]).toMatchObject({ turnId: 'a', sessionId: 'a' });
    await h.scheduler.stop();
  });
});

describe('createPollScheduler: deadlines', () => {
  it('gives up on an entry stuck in loading at its deadline, aborting its request', async () => {
    const h = harness(answerAfter(1_000, loading));
    const deadlines: number[] = [];
    const reports: number[] = [];
    h.scheduler.add(entry('a', 5_500), {
      onReport: () => void reports.push(h.clock.now()),
      onError: () => {},
      onDeadline: () => void deadlines.push(h.clock.now()),
    });
    await h.clock.advanceAsync(20_000);
    expect(deadlines).toEqual([5_500]);
    expect(reports).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(h.signals.at(-1)?.aborted).toBe(true);
    expect(h.scheduler.has('a')).toBe(false);
    expect(h.scheduler.size()).toBe(0);
    expect(h.clock.pendingSleepers()).toBe(0);
  });

  it('fires the deadline of a parked entry on time', async () => {
    const h = harness(() => () => Promise.reject(new Error('down')), {
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    const deadlines: number[] = [];
    h.scheduler.add(entry('a', 5_000), {
      ...keepPolling(),
      onDeadline: () => void deadlines.push(h.clock.now()),
    });
    await h.clock.advanceAsync(60_000);
    expect(deadlines).toEqual([5_000]);
    expect(h.polls).toHaveLength(1);
  });

  it('re-arms its wake-up when a new entry has an earlier deadline', async () => {
    const h = harness(
      () => (call) => (call.sessionId === 'late' ? Promise.reject(new Error('down')) : new Promise(() => {})),
      { backoff: { baseMs: 120_000, maxMs: 120_000 } },
    );
    const deadlines: string[] = [];
    const onDeadline = (id: string) => () => void deadlines.push(`${id}@${h.clock.now()}`);
    h.scheduler.add(entry('late', 100_000), { ...keepPolling(), onDeadline: onDeadline('late') });
    await h.clock.flush();
    h.scheduler.add(entry('early', 1_000), { ...keepPolling(), onDeadline: onDeadline('early') });
    await h.clock.advanceAsync(100_000);
    expect(deadlines).toEqual(['early@1000', 'late@100000']);
  });

  it('waits for a running handler before giving up, and not at all when it stops the entry', async () => {
    const h = harness(answerAfter(1_000, { status: 'done', message: 'answer' }));
    const events: string[] = [];
    h.scheduler.add(entry('a', 1_500), {
      onReport: async () => {
        events.push(`posting@${h.clock.now()}`);
        await h.clock.sleep(2_000); // posting the answer takes a while
        events.push(`posted@${h.clock.now()}`);
        return 'stop' as const; // an async handler's lone literal return widens to string otherwise
      },
      onError: () => {},
      onDeadline: () => void events.push('deadline'),
    });
    await h.clock.advanceAsync(10_000);
    expect(events).toEqual(['posting@1000', 'posted@3000']);
    expect(h.scheduler.has('a')).toBe(false);
  });

  it('gives up once a handler that keeps polling returns after the deadline', async () => {
    const h = harness(answerAfter(1_000, loading));
    const events: string[] = [];
    h.scheduler.add(entry('a', 1_500), {
      onReport: () => h.clock.sleep(2_000), // e.g. a slow progress update
      onError: () => {},
      onDeadline: () => void events.push(`deadline@${h.clock.now()}`),
    });
    await h.clock.advanceAsync(10_000);
    expect(events).toEqual(['deadline@3000']);
    expect(h.polls).toHaveLength(1);
  });
});

describe('createPollScheduler: removal and shutdown', () => {
  it("removes an entry whose handler returns 'stop'", async () => {
    const h = harness(
      (clock) => (call) => clock.sleep(10).then(() => (call.n < 3 ? loading : { status: 'done' })),
    );
    const statuses: string[] = [];
    h.scheduler.add(entry('a'), {
      ...keepPolling(),
      onReport: (report) => {
        statuses.push(report.status);
        return report.status === 'done' ? 'stop' : undefined;
      },
    });
    await h.clock.advanceAsync(1_000);
    expect(statuses).toEqual(['loading', 'loading', 'done']);
    expect(h.scheduler.has('a')).toBe(false);
    expect(h.polls).toHaveLength(3);
  });

  it("removes an entry whose error handler returns 'stop'", async () => {
    const h = harness(() => () => Promise.reject(new Error('session gone')));
    h.scheduler.add(entry('a'), { ...keepPolling(), onError: () => 'stop' });
    await h.clock.advanceAsync(10_000);
    expect(h.polls).toHaveLength(1);
    expect(h.scheduler.size()).toBe(0);
  });

  it('does not call handlers of an entry removed while its request is in flight, and frees its slot', async () => {
    const h = harness(answerAfter(100, loading), { slots: 1 });
    const reportsOf: string[] = [];
    const handlers = (id: string): PollHandlers => ({
      onReport: () => void reportsOf.push(id),
      onError: () => void reportsOf.push(`${id}:error`),
      onDeadline: () => void reportsOf.push(`${id}:deadline`),
    });
    h.scheduler.add(entry('a'), handlers('a'));
    h.scheduler.add(entry('b'), handlers('b'));
    await h.clock.advanceAsync(50);
    expect(h.scheduler.remove('a')).toBe(true);
    expect(h.scheduler.remove('a')).toBe(false);
    await h.clock.advanceAsync(0);
    expect(h.polls.map((p) => `${p.id}@${p.at}`)).toEqual(['a@0', 'b@50']);
    await h.clock.advanceAsync(200);
    expect(reportsOf).toEqual(['b', 'b']);
    expect(h.scheduler.ids()).toEqual(['b']);
    expect(h.signals[0]?.aborted).toBe(true);
    await h.scheduler.stop();
  });

  it('stop() aborts requests in flight, resolves once they settled, and refuses new entries', async () => {
    const h = harness(
      () => (call) => new Promise((_, reject) => call.signal.addEventListener('abort', reject)),
    );
    const handled: string[] = [];
    const handlers: PollHandlers = {
      onReport: () => void handled.push('report'),
      onError: () => void handled.push('error'),
      onDeadline: () => void handled.push('deadline'),
    };
    for (const id of ['a', 'b', 'c']) h.scheduler.add(entry(id), handlers);
    expect(h.scheduler.inFlight()).toBe(3);
    await h.scheduler.stop();
    expect(h.scheduler.inFlight()).toBe(0);
    expect(h.signals.every((s) => s.aborted)).toBe(true);
    expect(handled).toEqual([]);
    expect(h.scheduler.size()).toBe(0);
    expect(() => h.scheduler.add(entry('d'), handlers)).toThrow(/stopped/);
  });

  it('replaces an entry added again under the same id', async () => {
    const h = harness(answerAfter(100, loading));
    const seen: string[] = [];
    h.scheduler.add(entry('a'), { ...keepPolling(), onReport: () => void seen.push('old') });
    h.scheduler.add(entry('a'), { ...keepPolling(), onReport: () => void seen.push('new') });
    await h.clock.advanceAsync(150);
    expect(seen).toEqual(['new']);
    expect(h.scheduler.size()).toBe(1);
    await h.scheduler.stop();
  });
});

describe('late entries (past their turn deadline)', () => {
  it('are polled at the slow pace only', async () => {
    const h = harness(answerAfter(100, loading), { lateIntervalMs: 5_000 });
    h.scheduler.add({ ...entry('late'), pace: 'late' }, keepPolling());
    await h.clock.advanceAsync(20_000);
    const starts = h.polls.filter((p) => p.id === 'late').map((p) => p.at);
    expect(starts).toEqual([0, 5_000, 10_000, 15_000, 20_000]);
    await h.scheduler.stop();
  });

  it('hold at most lateSlots of the slots', async () => {
    const h = harness(answerAfter(1_000, loading), { slots: 4, lateSlots: 1, lateIntervalMs: 0 });
    for (const id of ['l1', 'l2', 'l3']) h.scheduler.add({ ...entry(id), pace: 'late' }, keepPolling());
    await h.clock.advanceAsync(3_500);
    expect(h.polls.map((p) => p.at)).toEqual([0, 1_000, 2_000, 3_000]);
    expect(h.polls.map((p) => p.id)).toEqual(['l1', 'l2', 'l3', 'l1']);
    await h.scheduler.stop();
  });

  it('get a slot only when no on-time turn waits for one', async () => {
    const h = harness(answerAfter(1_000, loading), { slots: 1, lateIntervalMs: 0 });
    h.scheduler.add({ ...entry('late'), pace: 'late' }, keepPolling());
    h.scheduler.add({ ...entry('late2'), pace: 'late' }, keepPolling());
    await h.clock.advanceAsync(500);
    h.scheduler.add(entry('busy'), keepPolling());
    await h.clock.advanceAsync(1_000);
    // The late poll under way finishes; the on-time turn that waited goes before the other late one.
    expect(h.polls.map((p) => p.id)).toEqual(['late', 'busy']);
    h.scheduler.remove('busy');
    await h.clock.advanceAsync(1_000);
    expect(h.polls.at(-1)?.id).toBe('late');
    await h.scheduler.stop();
  });
});
