import { DONE_WAITING } from '../../runtime/clock.js';
import type { ConversationMetrics, ConversationStore } from '../ports.js';
import { createTurnEffects, type TurnEffectsDeps } from './turn-effects.js';
import type { TurnInFlight, TurnStartWork } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import { startingRecord, stateOfRecord, stateOfThread, transition } from './turn-machine.js';
import type { ThreadRecord, TurnDraft, TurnRecord } from './turn-records.js';
import type { TurnEvent, TurnState } from './turn-states.js';

export interface TurnRunnerDeps
  extends Omit<TurnEffectsDeps, 'ledger' | 'lateWatchMs' | 'feed' | 'hold' | 'isCurrent' | 'finished'> {
  store: ConversationStore;
  metrics: ConversationMetrics;
  /** `lateWatchMs`: how long past its deadline a run is still watched (0, the default: not). */
  settings: { instanceId: string; lateWatchMs?: number | undefined };
  /** The one writer of the turn's records and locks (made once in the composition root). */
  ledger: TurnLedger;
}

/**
 * Runs every turn this instance holds: each event (a start's result, a report, a deadline, a stop, a
 * takeover) goes through the turn machine, its effects through turn-effects.ts. A turn's path:
 * turn-intake.ts → run-start.ts → this runner → outcome-poster.ts, which posts it once.
 */
export function createTurnRunner(deps: TurnRunnerDeps) {
  const { metrics, settings, poller, ledger } = deps;
  /** Every turn this instance polls or posts. */
  const held = new Map<string, TurnInFlight>();
  const effects = createTurnEffects({
    ...deps,
    ledger,
    lateWatchMs: settings.lateWatchMs ?? 0,
    feed: step,
    hold,
    isCurrent: (entry) => held.get(entry.turn.turnId) === entry,
    async finished(entry) {
      await step(entry, { type: 'delivered' });
      if (held.get(entry.turn.turnId) === entry) held.delete(entry.turn.turnId);
      poller.remove(entry.turn.turnId);
      metrics.turnsInFlight(held.size);
    },
  });

  /** This instance follows the turn from now on (an entry it replaces stops waiting). */
  function hold(entry: TurnInFlight): TurnInFlight {
    const { turnId } = entry.turn;
    if (held.get(turnId) === entry) return entry;
    held.get(turnId)?.abort.abort(DONE_WAITING);
    held.set(turnId, entry);
    metrics.turnsInFlight(held.size);
    return entry;
  }

  /** Feeds an event to the turn machine and carries out every effect it returns, in order. */
  async function step(entry: TurnInFlight, event: TurnEvent): Promise<void> {
    if (event.type === 'status-report') metrics.statusPoll({ ok: true });
    const { state, effects: todo } = transition(entry.state, event);
    entry.state = state;
    for (const effect of todo) await effects.perform(entry, effect);
  }

  return {
    /** A message in a thread whose busy lock run start holds: `start` does the start effects. */
    begin(draft: TurnDraft, thread: ThreadRecord | undefined, start: TurnStartWork): Promise<void> {
      const turn = startingRecord(draft);
      const entry = entryOf(turn, stateOfThread(thread), false);
      entry.start = start;
      return step(entry, { type: 'message-received', turnId: turn.turnId });
    },
    /** The run started: `entry` is the one `begin` made. */
    started: (entry: TurnInFlight, sessionId: string) => step(entry, { type: 'run-started', sessionId }),
    /** The start or follow-up request of `turn` (as stored, still starting) failed. */
    async failStart(turn: TurnRecord, error: unknown): Promise<void> {
      metrics.serviceError(deps.errorCode(error));
      await step(hold(entryOf(turn, stateOfRecord(turn), false)), { type: 'run-start-failed', error });
    },
    /** A turn whose lease lapsed, taken from the instance that held it: the thread is looked at first. */
    takeOver: (turn: TurnRecord) =>
      step(hold(entryOf(turn, stateOfRecord(turn), true)), { type: 'taken-over' }),
    /** Someone stopped the turn (the mark is in the store): if this instance follows it, it ends now. */
    async stopTurn(turnId: string): Promise<void> {
      const entry = held.get(turnId);
      if (entry) await step(entry, { type: 'stop-requested' });
    },
    /** Stops following a turn without touching its stored state (another instance took it). */
    untrack(turnId: string): void {
      poller.remove(turnId);
      held.get(turnId)?.abort.abort(DONE_WAITING);
      held.delete(turnId);
      effects.forget(turnId);
      void deps.progress.settle(turnId);
      metrics.turnsInFlight(held.size);
    },
    /** Ends every wait between delivery attempts; resolves once attempts under way settled. */
    async stop(): Promise<void> {
      for (const entry of held.values()) entry.abort.abort();
      await effects.settled();
    },
    tracking: () => [...held.keys()],
    /** The record of a turn this instance follows (recovery saves it again if Redis lost it). */
    turnOf: (turnId: string): TurnRecord | undefined => held.get(turnId)?.turn,
  };
}

function entryOf(turn: TurnRecord, state: TurnState, takenOver: boolean): TurnInFlight {
  return {
    turn,
    takenOver,
    state,
    abort: new AbortController(),
    released: false,
    noticeChain: Promise.resolve(),
  };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;
