import sinon from 'sinon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRepublishThrottle } from '../../src/home/republish-throttle.js';

describe('createRepublishThrottle', () => {
  let clock: sinon.SinonFakeTimers;
  let published: Array<[string, number]>;
  let throttle: ReturnType<typeof createRepublishThrottle>;
  beforeEach(() => {
    // Only the timers: the throttle's waits, nothing of node's I/O.
    clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    published = [];
    throttle = createRepublishThrottle({
      intervalMs: 10_000,
      publish: async (user) => {
        published.push([user, Date.now()]);
      },
    });
  });
  afterEach(() => {
    throttle.stop();
    clock.restore();
  });

  it('publishes at once when nothing was published lately', () => {
    throttle.request('U1');
    expect(published).toEqual([['U1', 0]]);
  });

  it('coalesces requests within the interval into one publish at its end', async () => {
    throttle.request('U1');
    await clock.tickAsync(1_000);
    throttle.request('U1');
    throttle.request('U1');
    await clock.tickAsync(3_000);
    throttle.request('U1');
    expect(published).toHaveLength(1);
    await clock.tickAsync(6_000);
    expect(published).toEqual([
      ['U1', 0],
      ['U1', 10_000],
    ]);
    await clock.tickAsync(60_000);
    expect(published).toHaveLength(2);
  });

  it('counts an opening of the tab as a publish, and people apart', async () => {
    throttle.published('U1');
    throttle.request('U1');
    throttle.request('U2');
    expect(published).toEqual([['U2', 0]]);
    await clock.tickAsync(10_000);
    expect(published).toEqual([
      ['U2', 0],
      ['U1', 10_000],
    ]);
  });

  it('publishes nothing after stop', async () => {
    throttle.request('U1');
    throttle.request('U1');
    throttle.stop();
    await clock.tickAsync(20_000);
    throttle.request('U1');
    expect(published).toHaveLength(1);
  });
});
