import type { ClaimStore } from '../alerts/alert-ports.js';
import type { AccountSlotLeases } from '../budget/account-share.js';
import type { AllowanceUse, AllowanceVerdict } from '../conversation/ports.js';

/**
 * The operations keyv cannot do atomically: leases/dedupe marks, the in-flight turn set and
 * rolling-window allowances.
 * Each backend implements them natively (Lua in Redis, plain maps in memory).
 */
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
