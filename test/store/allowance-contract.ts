import { describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/store/index.js';

const T = 1_700_000_000_000;
const WINDOW_MS = 60_000;

/**
 * `takeAllowance` / `returnAllowance` (DESIGN "Spending") on one implementation; part of the store
 * contract. Times are passed in, so the window is judged the same in memory and in Redis.
 */
export function describeAllowanceContract(store: () => StateStore): void {
  describe('allowances', () => {
    const use = (id: string, now: number, limit = 3) =>
      store().takeAllowance('person:U1', { id, limit, windowMs: WINDOW_MS, now });

    it('counts uses up to the limit, then refuses with when the oldest leaves the window', async () => {
      expect(await use('a', T)).toEqual({ ok: true });
      expect(await use('b', T + 1_000)).toEqual({ ok: true });
      expect(await use('c', T + 2_000)).toEqual({ ok: true });
      expect(await use('d', T + 3_000)).toEqual({ ok: false, retryAt: T + WINDOW_MS });
      // A refused use is not recorded: asking again does not push the time back.
      expect(await use('e', T + 4_000)).toEqual({ ok: false, retryAt: T + WINDOW_MS });
    });

    it('rolls: room comes back exactly when the oldest use is a window old, one use at a time', async () => {
      for (const [index, id] of ['a', 'b', 'c'].entries()) await use(id, T + index * 1_000);
      expect(await use('x', T + WINDOW_MS - 1)).toEqual({ ok: false, retryAt: T + WINDOW_MS });
      expect(await use('y', T + WINDOW_MS)).toEqual({ ok: true });
      expect(await use('z', T + WINDOW_MS + 1)).toEqual({ ok: false, retryAt: T + 1_000 + WINDOW_MS });
    });

    it('gives a use back by its id; an unknown id changes nothing', async () => {
      for (const [index, id] of ['a', 'b', 'c'].entries()) await use(id, T + index * 1_000);
      await store().returnAllowance('person:U1', 'nope');
      expect((await use('d', T + 3_000)).ok).toBe(false);
      await store().returnAllowance('person:U1', 'b');
      expect(await use('d', T + 3_000)).toEqual({ ok: true });
      expect(await use('e', T + 4_000)).toEqual({ ok: false, retryAt: T + WINDOW_MS });
    });

    it('keeps each name apart', async () => {
      expect(await use('a', T, 1)).toEqual({ ok: true });
      expect((await use('b', T, 1)).ok).toBe(false);
      expect(
        await store().takeAllowance('person:U2', { id: 'c', limit: 1, windowMs: WINDOW_MS, now: T }),
      ).toEqual({ ok: true });
    });

    it('after the limit is lowered, waits for enough uses to leave the window for one more', async () => {
      for (const [index, id] of ['a', 'b', 'c', 'd', 'e'].entries()) await use(id, T + index * 1_000, 5);
      // Five in the window, two allowed: a, b, c and d must go before a sixth fits.
      expect(await use('f', T + 5_000, 2)).toEqual({ ok: false, retryAt: T + 3_000 + WINDOW_MS });
    });

    it('gives the last use to exactly one of 20 concurrent callers', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => use(`u${index}`, T + index, 5)),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(5);
    });

    it('rejects a limit, window or time that is not a positive integer', async () => {
      const take = (limit: number, windowMs: number, now = T) =>
        store().takeAllowance('person:U1', { id: 'a', limit, windowMs, now });
      await expect(take(0, WINDOW_MS)).rejects.toThrow(RangeError);
      await expect(take(1.5, WINDOW_MS)).rejects.toThrow(RangeError);
      await expect(take(1, 0)).rejects.toThrow(RangeError);
      await expect(take(1, WINDOW_MS, Number.NaN)).rejects.toThrow(RangeError);
    });
  });
}
