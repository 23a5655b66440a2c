import { randomUUID } from 'node:crypto';
import type { CapacityMoveLock } from '../capacity/index.js';
import type { ConversationStore } from '../conversation/ports.js';

/** The store lock's name: one capacity move at a time across every replica (DESIGN, "Decisions"). */
export const CAPACITY_LOCK_NAME = 'capacity-move';

/**
 * A lock for one move (the store's tryLock/unlock), its own owner id: no command frees another's.
 * `ttlMs`: long enough for a listing, two PUTs, a restore and a re-read; short if a replica dies mid-move.
 */
export function createCapacityLock(
  store: Pick<ConversationStore, 'tryLock' | 'unlock'>,
  instanceId: string,
  ttlMs = 5 * 60_000,
): CapacityMoveLock {
  const owner = `${instanceId}:${randomUUID()}`;
  return {
    acquire: () => store.tryLock(CAPACITY_LOCK_NAME, owner, ttlMs),
    release: () => store.unlock(CAPACITY_LOCK_NAME, owner),
  };
}
