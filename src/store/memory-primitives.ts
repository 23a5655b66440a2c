import { ExpiringMap } from './expiring-map.js';
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

  return {
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
    async ping() {},
    async close() {},
  };
}
