import { describe, expect, it } from 'vitest';
import type { StateStore } from '../../src/store/index.js';

/**
 * Account slot leases (DESIGN "Redis beyond one node": one request budget per account across
 * replicas); part of the store contract, so memory and Redis keep the same rules.
 */
export function describeAccountSlotsContract(
  store: () => StateStore,
  advance: (ms: number) => Promise<void>,
): void {
  describe('account slots', () => {
    const lease = (holder: string, want: number, ttlMs = 10_000, account = 'acct-1') =>
      store().leaseAccountSlots(account, holder, { want, limit: 10, ttlMs });

    it('grants what is wanted within what the other holders leave, never more than the limit in all', async () => {
      expect(await lease('a', 6)).toBe(6);
      expect(await lease('b', 6)).toBe(4);
      expect(await lease('c', 3)).toBe(0);
      // A holder asking again replaces its grant: a shrink frees slots for the others.
      expect(await lease('a', 2)).toBe(2);
      expect(await lease('b', 8)).toBe(8);
      expect(await lease('c', 3)).toBe(0);
    });

    it('keeps accounts apart', async () => {
      expect(await lease('a', 10)).toBe(10);
      expect(await lease('a', 10, 10_000, 'acct-2')).toBe(10);
    });

    it("drops a holder that stopped leasing once its grant expires, and gives back a released holder's slots", async () => {
      expect(await lease('dead', 7, 150)).toBe(7);
      expect(await lease('alive', 7)).toBe(3);
      await advance(300);
      expect(await lease('alive', 7)).toBe(7);
      await store().releaseAccountSlots('acct-1', 'alive');
      expect(await lease('other', 10)).toBe(10);
    });

    it('rejects a request that is not whole numbers', async () => {
      await expect(lease('a', 1.5)).rejects.toThrow(RangeError);
      await expect(lease('a', 1, 0)).rejects.toThrow(RangeError);
    });
  });
}
