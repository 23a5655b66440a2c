import type { Logger } from '../../runtime/logger.js';
import type { ConversationStore } from '../ports.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnRunner } from './turn-runner.js';

interface TurnRecoveryDeps {
  store: ConversationStore;
  runner: Pick<TurnRunner, 'tracking' | 'takeOver' | 'stopTurn' | 'untrack' | 'turnOf'>;
  logger: Logger;
  settings: { instanceId: string; leaseTtlMs: number };
  /** The one writer of the turn's records and locks (made once in the composition root). */
  ledger: TurnLedger;
}

/**
 * Durable turns across restarts and replicas: every in-flight turn whose lease expired is taken over
 * (resumed, or reported lost); this instance's leases are renewed — one taken by another instance
 * stops our polling, one that lapsed with nobody holding it is taken again — and stop marks read.
 */
export function createTurnRecovery(deps: TurnRecoveryDeps) {
  const { store, runner, settings, ledger } = deps;

  /** Takes over every in-flight turn with no live lease. Returns how many were taken. */
  async function adoptOrphans(): Promise<number> {
    const tracked = new Set(runner.tracking());
    let adopted = 0;
    for (const turnId of await store.listInFlightTurnIds()) {
      if (tracked.has(turnId)) continue;
      if (await ledger.leaseHeld(turnId)) continue;
      const lease = ledger.lease(turnId);
      if (!(await lease.take(settings.leaseTtlMs))) continue;
      const turn = await store.getTurn(turnId);
      if (!turn) {
        await lease.release();
        continue;
      }
      // Delivered, but its instance stopped before clearing it: clear it, never answer twice.
      if (await ledger.isDelivered(turnId)) {
        await ledger.clearTurn(turn);
        continue;
      }
      adopted += 1;
      await runner.takeOver(turn);
    }
    return adopted;
  }

  /** Renews this instance's leases. Rejects with the store down: tried again next tick, turns stay ours. */
  async function renewLeases(): Promise<void> {
    await Promise.all(runner.tracking().map((turnId) => renewLease(deps, turnId)));
  }

  /** Gives up every lease at shutdown, so another replica takes the turns over at once. */
  async function releaseAll(): Promise<void> {
    await Promise.all(runner.tracking().map((turnId) => ledger.lease(turnId).release()));
  }

  return { adoptOrphans, renewLeases, releaseAll };
}

/** A lease that lapsed with nobody taking the turn (Redis was down) is taken again, unless delivered. */
async function renewLease(deps: TurnRecoveryDeps, turnId: string): Promise<void> {
  const { runner, logger, settings, ledger } = deps;
  const lease = ledger.lease(turnId);
  if (await lease.renew(settings.leaseTtlMs)) {
    // A stop heard by another replica, seen within a renewal period even while a request long-polls.
    if (await ledger.isStopped(turnId).catch(() => false)) await runner.stopTurn(turnId);
    return;
  }
  if (await ledger.isDelivered(turnId)) {
    logger.info({ turnId }, 'lease lapsed; the outcome was delivered by another instance');
    runner.untrack(turnId);
    return;
  }
  if (await lease.take(settings.leaseTtlMs)) {
    logger.warn({ turnId }, 'lease had lapsed; taken again');
    await restoreRecord(deps, turnId);
    return;
  }
  logger.warn({ turnId }, 'lease lost; another instance polls this turn now');
  runner.untrack(turnId);
}

/**
 * Redis came back without the turn (no persistence): save it again, so it can be adopted if we die.
 * Not a turn that just finished: it is marked delivered before its record goes, so read that after.
 */
async function restoreRecord(deps: TurnRecoveryDeps, turnId: string): Promise<void> {
  const { store, runner, logger, ledger } = deps;
  const turn = runner.turnOf(turnId);
  if (!turn || (await store.getTurn(turnId))) return;
  if (await ledger.isDelivered(turnId)) return;
  await ledger.saveTurn(turn);
  logger.warn({ threadKey: turn.threadKey, turnId }, 'turn record was gone from the store; saved again');
}

export type TurnRecovery = ReturnType<typeof createTurnRecovery>;
