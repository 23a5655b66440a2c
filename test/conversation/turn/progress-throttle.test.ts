import sinon from 'sinon';
import { describe, expect, it } from 'vitest';
import {
  createProgressThrottle,
  type ProgressThrottle,
} from '../../../src/conversation/turn/progress-throttle.js';
import type { Logger } from '../../../src/runtime/logger.js';
import { createManualClock, type ManualClock } from '../../support/manual-clock.js';

interface Harness {
  clock: ManualClock;
  throttle: ProgressThrottle<number>;
  /** `key:payload@time` for every send started. */
  sent: string[];
  logger: Logger & { warn: sinon.SinonSpy };
}

type Send = (key: string, payload: number) => Promise<void>;

function harness(
  options: { perMinute?: number; burst?: number; maxRefreshesInFlight?: number; send?: Send } = {},
): Harness {
  const clock = createManualClock();
  const sent: string[] = [];
  const logger = {
    debug: sinon.spy(),
    info: sinon.spy(),
    warn: sinon.spy(),
    error: sinon.spy(),
    child: () => logger,
  };
  const throttle = createProgressThrottle<number>({
    perMinute: options.perMinute ?? 60,
    burst: options.burst ?? 1,
    maxRefreshesInFlight: options.maxRefreshesInFlight,
    clock,
    logger,
    send: async (key, payload) => {
      sent.push(`${key}:${payload}@${clock.now()}`);
      await options.send?.(key, payload);
    },
  });
  return { clock, throttle, sent, logger };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('createProgressThrottle', () => {
  it('sends while tokens last, then at the per-minute rate', async () => {
    const h = harness({ perMinute: 60, burst: 2 });
    for (const key of ['a', 'b', 'c', 'd']) h.throttle.offer(key, 1);
    await h.clock.advanceAsync(2_000);
    expect(h.sent).toEqual(['a:1@0', 'b:1@0', 'c:1@1000', 'd:1@2000']);
    expect(h.throttle.pendingCount()).toBe(0);
    expect(h.clock.pendingSleepers()).toBe(0);
  });

  it('saves up no more than the burst during a quiet spell', async () => {
    const h = harness({ perMinute: 60, burst: 2 });
    await h.clock.advanceAsync(60_000);
    for (const key of ['a', 'b', 'c', 'd']) h.throttle.offer(key, 1);
    await h.clock.advanceAsync(2_000);
    expect(h.sent).toEqual(['a:1@60000', 'b:1@60000', 'c:1@61000', 'd:1@62000']);
  });

  it('keeps only the latest update of a key while it waits', async () => {
    const h = harness();
    h.throttle.offer('a', 1);
    for (let step = 1; step <= 5; step += 1) h.throttle.offer('b', step);
    expect(h.throttle.pendingCount()).toBe(1);
    await h.clock.advanceAsync(5_000);
    expect(h.sent).toEqual(['a:1@0', 'b:5@1000']);
  });

  it('bounds what waits by the number of keys', async () => {
    const h = harness();
    for (let i = 0; i < 1_000; i += 1) h.throttle.offer(`k${i % 10}`, i);
    // k0's first step went out at once; each key keeps only its latest step.
    expect(h.throttle.pendingCount()).toBe(10);
    await h.clock.advanceAsync(10_000);
    const expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((k, i) => `k${k}:${990 + k}@${(i + 1) * 1_000}`);
    expect(h.sent).toEqual(['k0:0@0', ...expected]);
  });

  it('serves keys round-robin: a busy key does not starve the others', async () => {
    const h = harness();
    h.throttle.offer('busy', 0);
    h.throttle.offer('quiet1', 0);
    h.throttle.offer('quiet2', 0);
    for (let step = 1; step <= 3; step += 1) {
      await h.clock.advanceAsync(1_000);
      h.throttle.offer('busy', step); // a new step every second
    }
    await h.clock.advanceAsync(3_000);
    // busy:1 was replaced by busy:2 while the quiet keys had their turn.
    expect(h.sent).toEqual(['busy:0@0', 'quiet1:0@1000', 'quiet2:0@2000', 'busy:2@3000', 'busy:3@4000']);
  });

  it('never sends two updates of one key at once', async () => {
    const first = deferred();
    const h = harness({
      burst: 5,
      send: (_key, payload) => (payload === 1 ? first.promise : Promise.resolve()),
    });
    h.throttle.offer('a', 1);
    await h.clock.flush();
    h.throttle.offer('a', 2);
    h.throttle.offer('b', 1);
    await h.clock.advanceAsync(10_000);
    expect(h.sent).toEqual(['a:1@0', 'b:1@0']);
    first.resolve();
    await h.clock.flush();
    expect(h.sent).toEqual(['a:1@0', 'b:1@0', 'a:2@10000']);
  });

  it('cancel drops a waiting update and resolves at once when nothing is in flight', async () => {
    const h = harness();
    h.throttle.offer('a', 1);
    h.throttle.offer('b', 1);
    await h.throttle.cancel('b');
    await h.clock.advanceAsync(5_000);
    expect(h.sent).toEqual(['a:1@0']);
  });

  it('cancel resolves only once the send under way has finished', async () => {
    const slow = deferred();
    const h = harness({ send: () => slow.promise });
    h.throttle.offer('a', 1);
    await h.clock.flush();
    h.throttle.offer('a', 2);
    let settled = false;
    const cancelled = h.throttle.cancel('a').then(() => {
      settled = true;
    });
    await h.clock.advanceAsync(5_000);
    expect(settled).toBe(false);
    slow.resolve();
    await cancelled;
    await h.clock.advanceAsync(5_000);
    expect(h.sent).toEqual(['a:1@0']); // the waiting step 2 was dropped
  });

  it('logs a failed send, drops it, and carries on', async () => {
    const h = harness({
      send: (key) => (key === 'a' ? Promise.reject(new Error('message_not_found')) : Promise.resolve()),
    });
    h.throttle.offer('a', 1);
    h.throttle.offer('b', 1);
    await h.clock.advanceAsync(1_000);
    expect(h.sent).toEqual(['a:1@0', 'b:1@1000']);
    expect(h.logger.warn.callCount).toBe(1);
    expect(h.logger.warn.firstCall.args[0]).toMatchObject({ key: 'a' });
    await expect(h.throttle.cancel('a')).resolves.toBeUndefined();
  });

  it('offer never blocks or throws, even when send throws synchronously', async () => {
    const h = harness({
      send: () => {
        throw new Error('sync failure');
      },
    });
    expect(() => h.throttle.offer('a', 1)).not.toThrow();
    await h.clock.flush();
    expect(h.logger.warn.callCount).toBe(1);
  });

  it('close drops what waits, waits for sends under way, and ignores later offers', async () => {
    const slow = deferred();
    const h = harness({ send: () => slow.promise });
    h.throttle.offer('a', 1);
    h.throttle.offer('b', 1);
    await h.clock.flush();
    let closed = false;
    const closing = h.throttle.close().then(() => {
      closed = true;
    });
    await h.clock.flush();
    expect(closed).toBe(false);
    expect(h.clock.pendingSleepers()).toBe(0);
    slow.resolve();
    await closing;
    h.throttle.offer('c', 1);
    await h.clock.advanceAsync(10_000);
    expect(h.sent).toEqual(['a:1@0']);
  });

  it('refuses a rate that is not positive', () => {
    const clock = createManualClock();
    expect(() => createProgressThrottle({ perMinute: 0, clock, send: async () => {} })).toThrow(RangeError);
  });
});

describe('createProgressThrottle: refreshes', () => {
  it('sends a refresh at once, ahead of waiting steps and without waiting for a token', async () => {
    const h = harness({ perMinute: 60, burst: 1 });
    for (const key of ['a', 'b', 'c']) h.throttle.offer(key, 1);
    await h.clock.advanceAsync(500);
    h.throttle.offerRefresh('r', 9);
    await h.clock.flush();
    expect(h.sent).toEqual(['a:1@0', 'r:9@500']);
    // The refresh took a token it did not have: the steps wait that much longer.
    await h.clock.advanceAsync(3_500);
    expect(h.sent).toEqual(['a:1@0', 'r:9@500', 'b:1@2000', 'c:1@3000']);
  });

  it('lets refreshes overdraw the budget by at most a minute, so steps yield and then come back', async () => {
    const h = harness({ perMinute: 60, burst: 1 });
    for (let i = 0; i < 200; i += 1) h.throttle.offerRefresh(`r${i}`, 1);
    h.throttle.offer('step', 1);
    await h.clock.flush();
    expect(h.sent).toHaveLength(200); // all refreshes, none held back by the budget
    // 200 refreshes against 60 a minute: the debt is capped at 60 tokens, so the step goes after
    // about a minute (61 tokens to earn back), not after the 200 s the refreshes would cost.
    await h.clock.advanceAsync(60_000);
    expect(h.sent.at(-1)).toBe('r199:1@0');
    await h.clock.advanceAsync(2_000);
    expect(h.sent.at(-1)).toBe('step:1@61000');
  });

  it('a refresh takes over a waiting step of its key, and a later step keeps the refresh lane', async () => {
    const h = harness({ perMinute: 60, burst: 1 });
    h.throttle.offer('a', 1);
    h.throttle.offer('b', 1);
    h.throttle.offer('c', 1);
    await h.clock.flush();
    h.throttle.offerRefresh('c', 2);
    h.throttle.offer('c', 3); // a newer step while the refresh waits: the newer payload, still urgent
    await h.clock.advanceAsync(2_000);
    expect(h.sent.slice(0, 2)).toEqual(['a:1@0', 'c:3@0']);
    expect(h.throttle.pendingCount()).toBe(0);
    expect(h.sent).toHaveLength(3);
  });

  it('keeps at most maxRefreshesInFlight refreshes under way', async () => {
    const gates = [deferred(), deferred(), deferred()];
    let n = 0;
    const h = harness({
      maxRefreshesInFlight: 2,
      send: () => (gates[n++] ?? deferred()).promise,
    });
    for (const key of ['a', 'b', 'c']) h.throttle.offerRefresh(key, 1);
    await h.clock.flush();
    expect(h.sent).toEqual(['a:1@0', 'b:1@0']);
    gates[0]?.resolve();
    await h.clock.flush();
    expect(h.sent).toEqual(['a:1@0', 'b:1@0', 'c:1@0']);
  });

  it('cancel drops a waiting refresh; close drops them all', async () => {
    const slow = deferred();
    const h = harness({ maxRefreshesInFlight: 1, send: () => slow.promise });
    h.throttle.offerRefresh('a', 1);
    h.throttle.offerRefresh('b', 1);
    h.throttle.offerRefresh('c', 1);
    await h.clock.flush();
    await h.throttle.cancel('b');
    expect(h.throttle.pendingCount()).toBe(1);
    const closing = h.throttle.close();
    slow.resolve();
    await closing;
    h.throttle.offerRefresh('d', 1);
    await h.clock.advanceAsync(10_000);
    expect(h.sent).toEqual(['a:1@0']);
    expect(h.clock.pendingSleepers()).toBe(0);
  });
});
