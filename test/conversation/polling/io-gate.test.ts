import { describe, expect, it } from 'vitest';
import { createIoGate } from '../../../src/conversation/polling/io-gate.js';

describe('io gate', () => {
  it('releases one waiter per scheduled turn, in arrival order', async () => {
    const turns: Array<() => void> = [];
    const gate = createIoGate((next) => turns.push(next));
    const released: number[] = [];
    const passes = [1, 2, 3].map((n) => gate.pass().then(() => released.push(n)));
    expect(gate.waiting()).toBe(3);
    expect(turns).toHaveLength(1);

    turns.shift()?.();
    await Promise.resolve();
    expect(released).toEqual([1]);
    expect(gate.waiting()).toBe(2);

    turns.shift()?.();
    turns.shift()?.();
    await Promise.all(passes);
    expect(released).toEqual([1, 2, 3]);
    // One more turn finds the queue empty and stops scheduling.
    turns.shift()?.();
    expect(turns).toHaveLength(0);
  });

  it('lets pending I/O run between two pieces of work (real event loop)', async () => {
    const gate = createIoGate();
    const order: string[] = [];
    const work = [gate.pass().then(() => order.push('work 1')), gate.pass().then(() => order.push('work 2'))];
    // A callback of the I/O-and-timers kind queued now runs before the second piece of work.
    setImmediate(() => order.push('io'));
    await Promise.all(work);
    expect(order.indexOf('io')).toBeLessThan(order.indexOf('work 2'));
  });

  it('starts draining again after it went idle', async () => {
    const gate = createIoGate();
    await gate.pass();
    await gate.pass();
    expect(gate.waiting()).toBe(0);
  });
});
