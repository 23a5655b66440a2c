import type { AccountSlotLeases, SlotRequest } from '../budget/account-share.js';

/** One holder's grant: how many slots, until when. */
interface Grant {
  count: number;
  expiresAt: number;
}

function assertRequest(request: SlotRequest): void {
  const { want, limit, ttlMs } = request;
  if (!Number.isInteger(want) || want < 0) throw new RangeError(`want must be an integer ≥ 0: ${want}`);
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1: ${limit}`);
  if (!Number.isInteger(ttlMs) || ttlMs < 1) throw new RangeError(`ttlMs must be an integer ≥ 1: ${ttlMs}`);
}

export { assertRequest as assertSlotRequest };

/**
 * The account budgets of one process, with the Redis script's rules: expired holders drop out, a
 * holder gets what it wants within what the live others leave, a grant of 0 forgets the holder.
 */
export function createMemoryAccountSlots(clock: () => number): AccountSlotLeases {
  const accounts = new Map<string, Map<string, Grant>>();
  return {
    async leaseAccountSlots(account, holder, request) {
      assertRequest(request);
      const now = clock();
      const holders = accounts.get(account) ?? new Map<string, Grant>();
      accounts.set(account, holders);
      let others = 0;
      for (const [name, grant] of holders) {
        if (name === holder) continue;
        if (grant.expiresAt <= now) holders.delete(name);
        else others += grant.count;
      }
      const granted = Math.max(0, Math.min(request.want, request.limit - others));
      if (granted > 0) holders.set(holder, { count: granted, expiresAt: now + request.ttlMs });
      else holders.delete(holder);
      return granted;
    },
    async releaseAccountSlots(account, holder) {
      accounts.get(account)?.delete(holder);
    },
  };
}
