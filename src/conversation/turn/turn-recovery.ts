import type { Clock } from '../../runtime/clock.js';
import { systemClock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { ConversationStore } from '../ports.js';
import { createTurnLedger, type TurnLedger } from './turn-ledger.js';
import type { TurnRunner } from './turn-runner.js';

export interface TurnRecoveryDeps {
  store: ConversationStore;
  runner: Pick<TurnRunner, 'tracking' | 'takeOver' | 'stopTurn' | 'untrack' | 'turnOf'>;
  logger: Logger;
  settings: { instanceId: string; leaseTtlMs: number };
  /** @default the system clock */
  clock?: Pick<Clock, 'now'> | undefined;
  /** @default a ledger over `store` */
  ledger?: TurnLedger | undefined;
}

/**
 * Durable turns across restarts and replicas: at start-up and then periodically, every turn in
 * the store's in-flight set whose lease has expired is taken over (resumed, or — with no session
 * id — reported lost); the leases this instance holds are renewed, a lease found taken by another
 * instance stops our polling of it, and a lease that lapsed with nobody holding it (Redis was
 * down) is taken again. Renewal also looks for a stop mark on each turn held.
 */
export function createTurnRecovery(deps: TurnRecoveryDeps) {
  const { store, runner, logger, settings } = deps;
  const ledger =
    deps.ledger ??
    createTurnLedger({ store, clock: deps.clock ?? systemClock, instanceId: settings.instanceId });

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
      adopted += 1;
      await runner.takeOver(turn);
    }
    return adopted;
  }

  /**
   * Renews this instance's leases; drops turns whose lease another instance now holds. A renewal
   * that fails on the store (Redis down) rejects and is tried again at the next tick: the turns
   * stay ours meanwhile, and their deliveries keep retrying.
   */
  async function renewLeases(): Promise<void> {
    await Promise.all(runner.tracking().map(renewLease));
  }

  /**
   * A lease can lapse without another instance taking the turn: Redis was down for longer than
   * the lease, or came back without its data. Then the turn is taken again rather than dropped —
   * nobody else would deliver it — unless its outcome is already in the thread. Taking the lease
   * is atomic, so when another instance adopts the turn at the same moment only one of us has it.
   */
  async function renewLease(turnId: string): Promise<void> {
    const lease = ledger.lease(turnId);
    if (await lease.renew(settings.leaseTtlMs)) {
      // A stop heard by another replica: seen here within a renewal period even while a status
      // request long-polls (the poller sees it too, at its next report).
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
      await restoreRecord(turnId);
      return;
    }
    logger.warn({ turnId }, 'lease lost; another instance polls this turn now');
    runner.untrack(turnId);
  }

  /** Redis came back without the turn (no persistence): save it again, so it can be adopted if we die. */
  async function restoreRecord(turnId: string): Promise<void> {
    const turn = runner.turnOf(turnId);
    if (!turn || (await store.getTurn(turnId))) return;
    await ledger.saveTurn(turn);
    logger.warn({ threadKey: turn.threadKey, turnId }, 'turn record was gone from the store; saved again');
  }

  /** Gives up every lease at shutdown, so another replica takes the turns over at once. */
  async function releaseAll(): Promise<void> {
    await Promise.all(runner.tracking().map((turnId) => ledger.lease(turnId).release()));
  }

  return { adoptOrphans, renewLeases, releaseAll };
}

export type TurnRecovery = ReturnType<typeof createTurnRecovery>;
