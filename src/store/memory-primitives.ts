import { assertAllowanceUse } from './allowance-use.js';
import { createMemoryClaims } from './claims.js';
import { ExpiringMap } from './expiring-map.js';
import { createMemoryAccountSlots } from './memory-account-slots.js';
import type { StorePrimitives } from './primitives.js';
import { assertTtl } from './ttls.js';

/**
 * In-process locks and in-flight set. Node runs each call to completion before the next, so plain
 * maps are atomic here; the methods are async only to match the Redis implementation.
 * `recordExists` lets pruning check the turn record without knowing how records are stored.
 */
export function createMemoryPrimitives(
  clock: () => number,
  recordExists: (turnId: string) => boolean,
): StorePrimitives {
  const locks = new ExpiringMap<string>(clock);
  const inFlight = new Set<string>();
  /** Per allowance: its uses, oldest first. Expires a window after the last use, like the Redis key. */
  const allowances = new ExpiringMap<Array<{ id: string; at: number }>>(clock);

  return {
    ...createMemoryClaims(clock),
    async tryLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      const current = locks.get(name);
      if (current !== undefined && current !== owner) return false;
      locks.set(name, owner, ttlMs);
      return true;
    },
    async renewLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      return locks.get(name) === owner && locks.expire(name, ttlMs);
    },
    async unlock(name, owner) {
      if (locks.get(name) === owner) locks.delete(name);
    },
    async lockOwner(name) {
      return locks.get(name);
    },
    async addInFlight(turnId) {
      inFlight.add(turnId);
    },
    async removeInFlight(turnId) {
      inFlight.delete(turnId);
    },
    async inFlightIds() {
      return [...inFlight];
    },
    async pruneInFlight(turnId) {
      if (!recordExists(turnId)) inFlight.delete(turnId);
    },
    async takeAllowance(name, use) {
      assertAllowanceUse(use);
      const uses = (allowances.get(name) ?? []).filter((each) => each.at > use.now - use.windowMs);
      if (uses.length < use.limit) {
        uses.push({ id: use.id, at: use.now });
        uses.sort((a, b) => a.at - b.at);
        allowances.set(name, uses, use.windowMs);
        return { ok: true };
      }
      // Room comes back when enough of the oldest uses leave the window for one more to fit.
      const freeing = uses[uses.length - use.limit] as { at: number };
      return { ok: false, retryAt: freeing.at + use.windowMs };
    },
    async returnAllowance(name, id) {
      const uses = allowances.get(name);
      const index = uses?.findIndex((each) => each.id === id) ?? -1;
      if (uses && index >= 0) uses.splice(index, 1);
    },
    ...createMemoryAccountSlots(clock),
    async ping() {},
    async close() {},
  };
}
