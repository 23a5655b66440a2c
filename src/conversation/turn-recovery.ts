import type { ConversationStore, Logger } from './ports.js';
import type { TurnDelivery } from './turn-delivery.js';
import { lockNames } from './turn-lifecycle.js';

export interface TurnRecoveryDeps {
  store: ConversationStore;
  delivery: TurnDelivery;
  logger: Logger;
  settings: { instanceId: string; leaseTtlMs: number };
}

/**
 * Durable turns across restarts and replicas: at start-up and then periodically, every turn in
 * the store's in-flight set whose lease has expired is taken over (resumed, or — with no session
 * id — reported lost); the leases this instance holds are renewed, and a lease found taken by
 * another instance stops our polling of it.
 */
export function createTurnRecovery(deps: TurnRecoveryDeps) {
  const { store, delivery, logger, settings } = deps;
  const me = settings.instanceId;

  /** Takes over every in-flight turn with no live lease. Returns how many were taken. */
  async function adoptOrphans(): Promise<number> {
    const tracked = new Set(delivery.tracking());
    let adopted = 0;
    for (const turnId of await store.listInFlightTurnIds()) {
      if (tracked.has(turnId)) continue;
      if (await store.lockOwner(lockNames.lease(turnId))) continue;
      if (!(await store.tryLock(lockNames.lease(turnId), me, settings.leaseTtlMs))) continue;
      const turn = await store.getTurn(turnId);
      if (!turn) {
        await store.unlock(lockNames.lease(turnId), me);
        continue;
      }
      adopted += 1;
      if (turn.phase === 'starting' || !turn.sessionId) {
        await delivery.abandonLostTurn(turn);
        continue;
      }
      logger.info({ threadKey: turn.threadKey, sessionId: turn.sessionId, turnId }, 'resuming turn');
      await restoreThreadSession(turn.threadKey, turn.sessionId);
      delivery.track(turn, { takenOver: true });
    }
    return adopted;
  }

  /**
   * The starter saves the running turn, then the thread's session id: a process that died in
   * between left the session only on the turn. Without it the thread's next reply finds no session.
   */
  async function restoreThreadSession(threadKey: string, sessionId: string): Promise<void> {
    const thread = await store.getThread(threadKey);
    if (thread && !thread.sessionId) await store.saveThread({ ...thread, sessionId });
  }

  /** Renews this instance's leases; drops turns whose lease another instance now holds. */
  async function renewLeases(): Promise<void> {
    await Promise.all(
      delivery.tracking().map(async (turnId) => {
        if (await store.renewLock(lockNames.lease(turnId), me, settings.leaseTtlMs)) return;
        logger.warn({ turnId }, 'lease lost; another instance polls this turn now');
        delivery.untrack(turnId);
      }),
    );
  }

  /** Gives up every lease at shutdown, so another replica takes the turns over at once. */
  async function releaseAll(): Promise<void> {
    await Promise.all(delivery.tracking().map((turnId) => store.unlock(lockNames.lease(turnId), me)));
  }

  return { adoptOrphans, renewLeases, releaseAll };
}

export type TurnRecovery = ReturnType<typeof createTurnRecovery>;
