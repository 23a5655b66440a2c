import type { Logger } from '../../runtime/logger.js';
import type { AgentSessions } from '../agent-session.js';
import type { ConversationMetrics, ConversationStore } from '../ports.js';
import type { ThreadCheck } from './thread-check.js';
import { type TurnInFlight, where } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import { threadChangeOf } from './turn-machine.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnOutcome } from './turn-records.js';

export interface TurnClosingDeps {
  ledger: TurnLedger;
  store: Pick<ConversationStore, 'getThread'>;
  progress: Pick<TurnProgress, 'end'>;
  sessions?: Pick<AgentSessions, 'end'> | undefined;
  threadCheck: Pick<ThreadCheck, 'removeStrays'>;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'deliveryDropped' | 'turnFinished'>;
  observer?: Pick<TurnObserver, 'finished'> | undefined;
  /** The turn is over here: the machine is told, polling stops, the runner forgets it. */
  finished(entry: TurnInFlight): Promise<void>;
  stopPolling(turnId: string): void;
}

/** The end of a turn in the store and around the thread: the thread freed, the records cleared. */
export function createTurnClosing(deps: TurnClosingDeps) {
  const { ledger, store, progress, threadCheck, metrics } = deps;

  /**
   * Frees the thread for its next turn, recording what the machine decided the thread keeps, before
   * the outcome shows: whoever reads it and replies at once is never refused. Only once per turn (by
   * a retry a newer turn may own the thread). `record`: false when the outcome is given up on.
   */
  async function releaseThread(entry: TurnInFlight, record: boolean): Promise<void> {
    if (entry.released) return;
    const { turn } = entry;
    const change = record ? threadChangeOf(entry.state) : undefined;
    const thread = change ? await store.getThread(turn.threadKey) : undefined;
    if (thread && change?.kind === 'final') await ledger.saveFinal(thread, change.lastFinal);
    else if (thread && change?.kind === 'run-open') await ledger.saveRunOpen(thread, turn.startedAt);
    else if (thread && change?.kind === 'stopped') await ledger.saveStopped(thread);
    await ledger.threadLock(turn.threadKey, turn.turnId).release();
    entry.released = true;
  }

  /** Marks the turn delivered and clears its records, leases and progress indicator. */
  async function finish(entry: TurnInFlight, outcome: TurnOutcome | undefined): Promise<void> {
    const { turn } = entry;
    await ledger.markDelivered(turn.turnId);
    await ledger.clearTurn(turn);
    await deps.finished(entry);
    if (outcome) {
      metrics.turnFinished(outcome);
      deps.observer?.finished(turn, outcome);
    }
    await progress.end(turn, { clearStatus: outcome !== undefined && outcome !== 'done' });
    // Last (the text and session statuses share a slot; `active` must stay), beside: it never rejects.
    if (outcome !== undefined) void deps.sessions?.end(where(turn));
    await threadCheck.removeStrays(turn);
  }

  /** Slack refused the outcome for good: stop polling, drop the turn, free the thread (retried). */
  async function drop(
    entry: TurnInFlight,
    code: string,
    retry: (work: () => Promise<void>) => Promise<unknown>,
  ) {
    const { threadKey, turnId, sessionId, channel } = entry.turn;
    deps.logger.warn(
      { threadKey, turnId, sessionId, channel, code },
      'Slack refused the outcome for good; turn dropped',
    );
    metrics.deliveryDropped(code);
    deps.stopPolling(turnId);
    await retry(async () => {
      await releaseThread(entry, false);
      await finish(entry, 'undeliverable');
    });
  }

  return { releaseThread, finish, drop };
}
