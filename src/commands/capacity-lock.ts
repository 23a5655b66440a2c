import { randomUUID } from 'node:crypto';
import type { CapacityMoveLock } from '../capacity/index.js';
import type { ConversationStore } from '../conversation/ports.js';

/** The store lock's name: one capacity move at a time across every replica (DESIGN, "Decisions"). */
export const CAPACITY_LOCK_NAME = 'capacity-move';

/**
 * Long enough for a listing, two PUTs (plus a restore) and a re-read with the client's retries;
 * short enough that a replica dying mid-move does not block moves for long.
 */
export const CAPACITY_LOCK_TTL_MS = 5 * 60_000;

/**
 * A fresh lock for one move, backed by the store's atomic tryLock/unlock. A new owner id per
 * move, so one replica's concurrent commands cannot release each other's lock.
 */
export function createCapacityLock(
  store: Pick<ConversationStore, 'tryLock' | 'unlock'>,
  instanceId: string,
  ttlMs = CAPACITY_LOCK_TTL_MS,
): CapacityMoveLock {
  const owner = `${instanceId}:${randomUUID()}`;
  return {
    acquire: () => store.tryLock(CAPACITY_LOCK_NAME, owner, ttlMs),
    release: () => store.unlock(CAPACITY_LOCK_NAME, owner),
  };
}
