import type { Clock } from '../../runtime/clock.js';
import type { ConversationStore, ReportDigest } from '../ports.js';
import type { ThreadRecord, TurnRecord } from './turn-records.js';

/**
 * Names of the store locks a turn uses. Kept in one place: every replica must agree on them.
 * - `thread:<threadKey>` — held by the turn id while a turn runs: only an idle thread takes a turn.
 * - `lease:<turnId>` — held by the instance polling the turn; expires when that instance dies.
 * - `delivery:<turnId>` — held by the instance posting the outcome, so two never post at once.
 * - `delivered:<turnId>` — set once the outcome is in Slack.
 * - `seen:<channel>:<ts>` — dedupe mark for a Slack message.
 * - `stopped:<turnId>` — someone pressed Stop (owner: who); whichever instance polls the turn ends it.
 */
export const lockNames = {
  thread: (threadKey: string) => `thread:${threadKey}`,
  lease: (turnId: string) => `lease:${turnId}`,
  delivery: (turnId: string) => `delivery:${turnId}`,
  delivered: (turnId: string) => `delivered:${turnId}`,
  seen: (channel: string, ts: string) => `seen:${channel}:${ts}`,
  stopped: (turnId: string) => `stopped:${turnId}`,
};

/** Slack retries for up to about an hour; a dedupe mark must outlive that window. */
export const DEDUPE_TTL_MS = 2 * 60 * 60 * 1000;
/** How long the delivered mark is kept (long past any lease expiry or retry). */
export const DELIVERED_TTL_MS = 24 * 60 * 60 * 1000;
/** How long one instance may take to post an outcome before another may try. */
export const DELIVERY_CLAIM_TTL_MS = 5 * 60 * 1000;

/**
 * The one writer of a turn's durable state: the lock protocol and every write of the thread and turn
 * records. Stateless: every replica's ledger agrees through the store alone.
 */
export function createTurnLedger(deps: {
  store: ConversationStore;
  clock: Pick<Clock, 'now'>;
  /** The token of the locks held by this instance (lease, delivery claim, delivered mark). */
  instanceId: string;
}) {
  const { store, clock, instanceId: me } = deps;
  const lock = (name: string, token: string) => storeLock(store, name, token);

  function saveThread(thread: ThreadRecord, changes: Partial<ThreadRecord>): Promise<void> {
    return store.saveThread({ ...thread, ...changes, updatedAt: clock.now() });
  }

  return {
    /** The thread's busy lock, held by the turn `turnId`. */
    threadLock: (threadKey: string, turnId: string) => lock(lockNames.thread(threadKey), turnId),
    /** The turn holding the thread, if any (and its record still there). */
    async turnHolding(threadKey: string): Promise<TurnRecord | undefined> {
      const turnId = await store.lockOwner(lockNames.thread(threadKey));
      return turnId ? store.getTurn(turnId) : undefined;
    },
    /** This instance's lease on a turn. */
    lease: (turnId: string) => lock(lockNames.lease(turnId), me),
    /** True when some instance holds the turn's lease. */
    leaseHeld: async (turnId: string) => (await store.lockOwner(lockNames.lease(turnId))) !== undefined,
    /** This instance's claim to post the turn's outcome. */
    deliveryClaim: (turnId: string) => lock(lockNames.delivery(turnId), me),
    /** True once some instance put the turn's outcome in Slack. */
    isDelivered: async (turnId: string) => (await store.lockOwner(lockNames.delivered(turnId))) !== undefined,
    markDelivered: (turnId: string) => store.tryLock(lockNames.delivered(turnId), me, DELIVERED_TTL_MS),
    /** Someone (`userId`) stopped the turn: the stop mark every replica's poller looks for. */
    markStopped: (turnId: string, userId: string) =>
      store.tryLock(lockNames.stopped(turnId), userId, DELIVERED_TTL_MS),
    /** True once someone stopped the turn. */
    isStopped: async (turnId: string) => (await store.lockOwner(lockNames.stopped(turnId))) !== undefined,
    /** The dedupe mark of a Slack message; true for its first sighting only (a unique token per call). */
    markSeen: (channel: string, ts: string, token: string) =>
      store.tryLock(lockNames.seen(channel, ts), token, DEDUPE_TTL_MS),

    /** The thread's first record, saved when its first turn is taken. */
    createThread: (thread: ThreadRecord) => store.saveThread(thread),
    /** The thread's run finished with `lastFinal`: the next turn follows up, compared against it. */
    saveFinal: (thread: ThreadRecord, lastFinal: ReportDigest | undefined) =>
      saveThread(thread, { lastFinal, runOpenSince: undefined }),
    /** The run was stopped: the thread forgets its session, so the next question starts a new one. */
    saveStopped: (thread: ThreadRecord) =>
      saveThread(thread, { sessionId: undefined, lastFinal: undefined, runOpenSince: undefined }),
    /** The turn ended without a terminal status: the next message reads the run's status first. */
    saveRunOpen: (thread: ThreadRecord, since: number) => saveThread(thread, { runOpenSince: since }),
    /** The run started: the thread continues its session from the turn's message on. */
    async saveSession(turn: TurnRecord, sessionId: string): Promise<void> {
      const thread = await store.getThread(turn.threadKey);
      if (thread) await saveThread(thread, { sessionId, lastTurnTs: turn.sourceTs });
    },
    /** Gives the thread the turn's session back if a process died between saving the turn and the thread. */
    async restoreSession(threadKey: string, sessionId: string): Promise<void> {
      const thread = await store.getThread(threadKey);
      if (thread && !thread.sessionId) await store.saveThread({ ...thread, sessionId });
    },

    /** Saves the turn and keeps it in the in-flight set. */
    saveTurn: (turn: TurnRecord) => store.saveTurn(turn),
    /** Removes every trace of a finished turn except the delivered mark. */
    async clearTurn(turn: TurnRecord): Promise<void> {
      await store.deleteTurn(turn.turnId);
      await Promise.all([
        lock(lockNames.thread(turn.threadKey), turn.turnId).release(),
        lock(lockNames.lease(turn.turnId), me).release(),
        lock(lockNames.delivery(turn.turnId), me).release(),
      ]);
    },
  };
}

export type TurnLedger = ReturnType<typeof createTurnLedger>;

/** One store lock as its holder sees it: name and token bound in (as vercel/chat's state adapters do). */
function storeLock(store: ConversationStore, name: string, token: string) {
  return {
    /** Set-if-absent with expiry; true when taken (or already ours: then renewed). */
    take: (ttlMs: number) => store.tryLock(name, token, ttlMs),
    /** Extends it while ours; false when it is gone or held by someone else. */
    renew: (ttlMs: number) => store.renewLock(name, token, ttlMs),
    /** Gives it back if ours (a no-op otherwise). */
    release: () => store.unlock(name, token),
  };
}
