import type { ClaimStore } from '../alerts/alert-ports.js';
import type { AccountSlotLeases, SlotRequest } from '../budget/account-share.js';
import type { AllowanceUse, ConversationStore } from '../conversation/ports.js';
import { assertTtl } from './ttls.js';

/** The locks and allowances of {@link ConversationStore}, as each backend does them atomically. */
type AtomicCalls = 'tryLock' | 'renewLock' | 'unlock' | 'lockOwner' | 'takeAllowance' | 'returnAllowance';

/** What keyv cannot do atomically: locks, claims, the in-flight set, allowances (Lua in Redis). */
export interface StorePrimitives extends AccountSlotLeases, ClaimStore, Pick<ConversationStore, AtomicCalls> {
  addInFlight(turnId: string): Promise<void>;
  removeInFlight(turnId: string): Promise<void>;
  inFlightIds(): Promise<string[]>;
  /** Removes `turnId` from the set only if its record is (still) gone, checked atomically. */
  pruneInFlight(turnId: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One entry of a ranked map: its `rank` orders it (epoch ms). */
export type RankedEntry = { field: string; value: string; rank: number };

/**
 * App Home's two shapes, atomic in each backend: a ranked map keeping its newest entries and a set
 * of distinct members. Each lives under one key, so Redis Cluster finds it in one slot.
 */
export interface HomePrimitives {
  /** Sets the entry, drops the lowest-ranked beyond `keep`; with `ttlMs` the map expires after this write. */
  putRanked(name: string, entry: RankedEntry, keep: number, ttlMs?: number): Promise<void>;
  /** The entries of `name`, highest rank first. */
  ranked(name: string): Promise<RankedEntry[]>;
  /** Adds `member`; with `ttlMs` the set expires that long after its first member. */
  addMember(name: string, member: string, ttlMs?: number): Promise<void>;
  removeMember(name: string, member: string): Promise<void>;
  members(name: string): Promise<string[]>;
  memberCount(name: string): Promise<number>;
}

/** Ranks are epoch ms: zero-padded, they sort as text in Redis' Lua as they do as numbers. */
export const RANK_DIGITS = 16;

/** Both backends refuse the same bad uses: a limit must be a positive integer, the window a `PEXPIRE`. */
export function assertAllowanceUse(use: AllowanceUse): void {
  if (!Number.isSafeInteger(use.limit) || use.limit <= 0) {
    throw new RangeError(`limit must be a positive integer, got ${use.limit}`);
  }
  assertTtl(use.windowMs, 'windowMs');
  if (!Number.isSafeInteger(use.now)) throw new RangeError(`now must be epoch milliseconds, got ${use.now}`);
  if (use.id === '') throw new RangeError('id must not be empty');
}

/** Both backends refuse the same bad slot requests. */
export function assertSlotRequest(request: SlotRequest): void {
  const { want, limit, ttlMs } = request;
  if (!Number.isInteger(want) || want < 0) throw new RangeError(`want must be an integer ≥ 0: ${want}`);
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be an integer ≥ 1: ${limit}`);
  if (!Number.isInteger(ttlMs) || ttlMs < 1) throw new RangeError(`ttlMs must be an integer ≥ 1: ${ttlMs}`);
}
