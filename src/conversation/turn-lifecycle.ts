import type { ConversationStore, TurnRecord } from './ports.js';

/**
 * Names of the store locks a turn uses. Kept in one place: every replica must agree on them.
 * - `thread:<threadKey>` — held by the turn id while a turn runs: only an idle thread takes a turn.
 * - `lease:<turnId>` — held by the instance polling the turn; expires when that instance dies.
 * - `delivery:<turnId>` — held by the instance posting the outcome, so two never post at once.
 * - `delivered:<turnId>` — set once the outcome is in Slack.
 * - `seen:<channel>:<ts>` — dedupe mark for a Slack message.
 */
export const lockNames = {
  thread: (threadKey: string) => `thread:${threadKey}`,
  lease: (turnId: string) => `lease:${turnId}`,
  delivery: (turnId: string) => `delivery:${turnId}`,
  delivered: (turnId: string) => `delivered:${turnId}`,
  seen: (channel: string, ts: string) => `seen:${channel}:${ts}`,
};

/** Slack retries for up to about an hour; a dedupe mark must outlive that window. */
export const DEDUPE_TTL_MS = 2 * 60 * 60 * 1000;
/** How long the delivered mark is kept (long past any lease expiry or retry). */
export const DELIVERED_TTL_MS = 24 * 60 * 60 * 1000;
/** How long one instance may take to post an outcome before another may try. */
export const DELIVERY_CLAIM_TTL_MS = 5 * 60 * 1000;

/** Removes every trace of a finished turn except the delivered mark. */
export async function clearTurn(store: ConversationStore, turn: TurnRecord, owner: string): Promise<void> {
  await store.deleteTurn(turn.turnId);
  await Promise.all([
    store.unlock(lockNames.thread(turn.threadKey), turn.turnId),
    store.unlock(lockNames.lease(turn.turnId), owner),
    store.unlock(lockNames.delivery(turn.turnId), owner),
  ]);
}
