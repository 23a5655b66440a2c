/**
 * The operations keyv cannot do atomically: leases/dedupe marks and the in-flight turn set.
 * Each backend implements them natively (Lua in Redis, plain maps in memory).
 */
export interface StorePrimitives {
  tryLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  unlock(name: string, owner: string): Promise<void>;
  lockOwner(name: string): Promise<string | undefined>;

  addInFlight(turnId: string): Promise<void>;
  removeInFlight(turnId: string): Promise<void>;
  inFlightIds(): Promise<string[]>;
  /** Removes `turnId` from the set only if its record is (still) gone, checked atomically. */
  pruneInFlight(turnId: string): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
