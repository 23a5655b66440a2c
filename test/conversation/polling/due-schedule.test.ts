import { describe, expect, it } from 'vitest';
import { createDueSchedule } from '../../../src/conversation/polling/due-schedule.js';
import { createManualClock } from '../../support/manual-clock.js';

function harness(isStale?: (item: string) => boolean) {
  const clock = createManualClock();
  const served: string[] = [];
  const schedule = createDueSchedule<string>({
    clock,
    onDue: (item, now) => served.push(`${item}@${now}`),
    isStale,
  });
  return { clock, served, schedule };
}

describe('createDueSchedule', () => {
  it('serves many items in time order with one sleeper', async () => {
    const h = harness();
    for (let i = 999; i >= 0; i -= 1) h.schedule.add(1_000 + i * 10, `i${i}`);
    await h.clock.flush();
    expect(h.clock.pendingSleepers()).toBe(1);
    await h.clock.advanceAsync(1_020);
    expect(h.served).toEqual(['i0@1000', 'i1@1010', 'i2@1020']);
    expect(h.clock.pendingSleepers()).toBe(1);
    await h.clock.advanceAsync(20_000);
    expect(h.served).toHaveLength(1_000);
    expect(h.schedule.size()).toBe(0);
    expect(h.clock.pendingSleepers()).toBe(0);
  });

  it('wakes sooner for an item earlier than the one it sleeps for', async () => {
    const h = harness();
    h.schedule.add(90_000, 'late');
    await h.clock.advanceAsync(1_000);
    h.schedule.add(30_000, 'early');
    await h.clock.advanceAsync(100_000);
    expect(h.served).toEqual(['early@30000', 'late@90000']);
    expect(h.clock.pendingSleepers()).toBe(0);
  });

  it('lets onDue add the item again for its next time', async () => {
    const clock = createManualClock();
    const served: number[] = [];
    const schedule = createDueSchedule<string>({
      clock,
      onDue: (item, now) => {
        served.push(now);
        if (served.length < 3) schedule.add(now + 10_000, item);
      },
    });
    schedule.add(10_000, 'a');
    await clock.advanceAsync(60_000);
    expect(served).toEqual([10_000, 20_000, 30_000]);
  });

  it('never hands a stale item to onDue', async () => {
    const stale = new Set(['b']);
    const h = harness((item) => stale.has(item));
    h.schedule.add(1_000, 'a');
    h.schedule.add(1_000, 'b');
    h.schedule.add(2_000, 'c');
    stale.add('c');
    await h.clock.advanceAsync(5_000);
    expect(h.served).toEqual(['a@1000']);
    expect(h.schedule.size()).toBe(0);
    expect(h.clock.pendingSleepers()).toBe(0);
  });

  it('close forgets every item, stops the sleeper, and ignores later adds', async () => {
    const h = harness();
    h.schedule.add(1_000, 'a');
    await h.clock.flush();
    h.schedule.close();
    await h.clock.flush();
    expect(h.clock.pendingSleepers()).toBe(0);
    h.schedule.add(2_000, 'b');
    await h.clock.advanceAsync(10_000);
    expect(h.served).toEqual([]);
    expect(h.schedule.size()).toBe(0);
  });
});
