import type { AccountSlotLeases } from '../budget/account-share.js';
import { createMemoryClaims } from './claims.js';
import { ExpiringMap } from './expiring-map.js';
import {
  assertAllowanceUse,
  assertSlotRequest,
  type HomePrimitives,
  type RankedEntry,
  type StorePrimitives,
} from './primitives.js';
import { assertTtl } from './ttls.js';

/**
 * The primitives in this process: Node runs each call to completion, so plain maps are atomic.
 * `hasTurn` lets pruning check the turn record without knowing how records are stored.
 */
export function createMemoryPrimitives(
  clock: () => number,
  hasTurn: (turnId: string) => boolean,
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
      if (!hasTurn(turnId)) inFlight.delete(turnId);
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

/** App Home's ranked maps and sets in this process (see primitives.ts). */
export function createMemoryHomePrimitives(clock: () => number): HomePrimitives {
  const maps = new ExpiringMap<Map<string, RankedEntry>>(clock);
  const sets = new ExpiringMap<Set<string>>(clock);

  return {
    async putRanked(name, entry, keep, ttlMs) {
      const map = maps.get(name) ?? new Map<string, RankedEntry>();
      map.set(entry.field, { ...entry });
      const byRank = [...map.values()].sort((a, b) => b.rank - a.rank);
      for (const dropped of byRank.slice(keep)) map.delete(dropped.field);
      maps.set(name, map, ttlMs);
    },
    async ranked(name) {
      return [...(maps.get(name)?.values() ?? [])]
        .sort((a, b) => b.rank - a.rank)
        .map((entry) => ({ ...entry }));
    },
    async addMember(name, member, ttlMs) {
      const set = sets.get(name);
      if (set) set.add(member);
      else sets.set(name, new Set([member]), ttlMs);
    },
    async removeMember(name, member) {
      sets.get(name)?.delete(member);
    },
    async members(name) {
      return [...(sets.get(name) ?? [])];
    },
    async memberCount(name) {
      return sets.get(name)?.size ?? 0;
    },
  };
}

type Grant = { count: number; expiresAt: number };

/** The account budgets of one process, with the Redis script's rules (LEASE_SLOTS). */
function createMemoryAccountSlots(clock: () => number): AccountSlotLeases {
  const accounts = new Map<string, Map<string, Grant>>();
  return {
    async leaseAccountSlots(account, holder, request) {
      assertSlotRequest(request);
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
