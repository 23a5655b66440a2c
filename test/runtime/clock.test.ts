import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/runtime/clock.js';
import { createManualClock } from '../support/manual-clock.js';

describe('createManualClock', () => {
  it('starts at the given time and only moves when advanced', async () => {
    const clock = createManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    await clock.flush();
    expect(clock.now()).toBe(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
  });

  it('resolves sleepers in time order once time passes them', async () => {
    const clock = createManualClock();
    const woken: string[] = [];
    void clock.sleep(300).then(() => woken.push('c'));
    void clock.sleep(100).then(() => woken.push('a'));
    void clock.sleep(200).then(() => woken.push('b'));
    void clock.sleep(200).then(() => woken.push('b2'));
    expect(clock.pendingSleepers()).toBe(4);
    clock.advance(199);
    await clock.flush();
    expect(woken).toEqual(['a']);
    clock.advance(101);
    await clock.flush();
    expect(woken).toEqual(['a', 'b', 'b2', 'c']);
    expect(clock.pendingSleepers()).toBe(0);
  });

  it('advanceAsync wakes code that sleeps again inside the window, each at its own time', async () => {
    const clock = createManualClock();
    const seen: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i += 1) {
        await clock.sleep(100);
        seen.push(clock.now());
      }
    })();
    await clock.advanceAsync(250);
    expect(seen).toEqual([100, 200]);
    expect(clock.now()).toBe(250);
    await clock.advanceAsync(50);
    expect(seen).toEqual([100, 200, 300]);
  });

  it('rejects an aborted sleep with the signal reason and forgets it', async () => {
    const clock = createManualClock();
    const controller = new AbortController();
    const sleep = clock.sleep(100, controller.signal);
    expect(clock.pendingSleepers()).toBe(1);
    controller.abort(new Error('cancelled'));
    await expect(sleep).rejects.toThrow('cancelled');
    expect(clock.pendingSleepers()).toBe(0);
    await expect(clock.sleep(10, controller.signal)).rejects.toThrow('cancelled');
  });

  it('resolves a zero sleep at once', async () => {
    const clock = createManualClock();
    await clock.sleep(0);
    expect(clock.pendingSleepers()).toBe(0);
  });
});

describe('systemClock', () => {
  it('sleeps on real time', async () => {
    const before = systemClock.now();
    await systemClock.sleep(20);
    expect(systemClock.now() - before).toBeGreaterThanOrEqual(15);
  });

  it('rejects when aborted, before or during the sleep', async () => {
    const controller = new AbortController();
    const sleep = systemClock.sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleep).rejects.toThrow('stop');
    await expect(systemClock.sleep(10, controller.signal)).rejects.toThrow('stop');
  });

  it('gives an AbortError when the signal has no reason of its own', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(systemClock.sleep(10, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
