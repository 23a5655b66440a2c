import type { ClaimStore } from '../alerts/alert-ports.js';
import type { AllowanceUse, AllowanceVerdict } from '../conversation/ports.js';

/**
 * The operations keyv cannot do atomically: leases/dedupe marks, the in-flight turn set and
 * rolling-window allowances.
 * Each backend implements them natively (Lua in Redis, plain maps in memory).
 */
/** What a replica asks of an account's shared request budget (see {@link AccountSlotLeases}). */
export interface SlotRequest {
  /** Slots wanted in all: replaces what the holder held (ask at least for what is in flight). */
  want: number;
  /** The account's slots across every holder (AGENT_ACCOUNT_CONCURRENCY). */
  limit: number;
  /** How long the grant lasts unless leased again: a dead holder's slots fall out after it. */
  ttlMs: number;
}

/**
 * An account's concurrent-request budget, leased in slots by every replica (DESIGN "Redis beyond
 * one node"): one record per account, holder → count and expiry, changed atomically.
 */
export interface AccountSlotLeases {
  /** Sets `holder`'s slots to at most `want`, within what the other live holders leave; resolves with the grant. */
  leaseAccountSlots(account: string, holder: string, request: SlotRequest): Promise<number>;
  /** Gives every slot of `holder` back (a clean shutdown). */
  releaseAccountSlots(account: string, holder: string): Promise<void>;
}

export interface StorePrimitives extends AccountSlotLeases, ClaimStore {
  tryLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  unlock(name: string, owner: string): Promise<void>;
  lockOwner(name: string): Promise<string | undefined>;

  addInFlight(turnId: string): Promise<void>;
  removeInFlight(turnId: string): Promise<void>;
  inFlightIds(): Promise<string[]>;
  /** Removes `turnId` from the set only if its record is (still) gone, checked atomically. */
  pruneInFlight(turnId: string): Promise<void>;

  /** See `ConversationStore.takeAllowance`: a sorted set in Redis, a list in memory. */
  takeAllowance(name: string, use: AllowanceUse): Promise<AllowanceVerdict>;
  returnAllowance(name: string, id: string): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
