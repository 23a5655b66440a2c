import { describe, expect, it } from 'vitest';
import { createScheduleClock, minuteAhead } from '../../dev/sandbox/schedule-clock.js';
import { createManualClock } from '../support/manual-clock.js';

describe("the sandbox's schedule clock", () => {
  it('jumps forward only, and a jump past a sleeper’s wake-up ends its sleep', async () => {
    const base = createManualClock(1_000_000);
    const clock = createScheduleClock(base);
    let woke = false;
    const sleeping = clock.sleep(20_000).then(() => {
      woke = true;
    });
    clock.jumpTo(1_010_000); // 10 s on: not yet
    await base.flush();
    expect(woke).toBe(false);
    clock.jumpTo(1_000_000); // never back
    expect(clock.now()).toBe(1_010_000);
    clock.jumpTo(1_030_000);
    await sleeping;
    expect(woke).toBe(true);
    expect(clock.now()).toBe(1_030_000);
  });

  it('a sleep aborted by its signal still rejects', async () => {
    const clock = createScheduleClock(createManualClock(0));
    const stop = new AbortController();
    const sleeping = clock.sleep(20_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(sleeping).rejects.toThrow('stopped');
  });

  it('names the next minute at least the margin ahead, in the zone', () => {
    const at = Date.UTC(2026, 10, 27, 15, 22, 30);
    expect(minuteAhead(at, 'Europe/London')).toEqual({ hhmm: '15:23', at: Date.UTC(2026, 10, 27, 15, 23) });
    // 55 s into the minute: the next one would be too close, so the one after.
    expect(minuteAhead(at + 25_000, 'Europe/Berlin')).toEqual({
      hhmm: '16:24',
      at: Date.UTC(2026, 10, 27, 15, 24),
    });
  });
});
