import type { Clock } from '../../runtime/clock.js';
import type { PollScheduler } from '../polling/poll-contract.js';
import type { ConversationMetrics } from '../ports.js';
import type { TurnInFlight } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnEvent } from './turn-states.js';

const STOP: TurnEvent = { type: 'stop-requested' };

export interface TurnPollsDeps {
  poller: Pick<PollScheduler, 'add'>;
  ledger: Pick<TurnLedger, 'isStopped'>;
  progress: Pick<TurnProgress, 'follow'>;
  clock: Clock;
  metrics: Pick<ConversationMetrics, 'statusPoll' | 'serviceError'>;
  /** How long past its deadline a run is still watched (0: the deadline ends the turn). */
  lateWatchMs: number;
  /** Error codes after which polling a session is pointless (token rejected, unknown session…). */
  isPermanentPollError: (error: unknown) => boolean;
  errorCode: (error: unknown) => string;
  /** The turn is this instance's to follow from now on. */
  hold(entry: TurnInFlight): void;
  /** Hands a poll's result to the turn machine. */
  feed(entry: TurnInFlight, event: TurnEvent): Promise<void>;
}

/** A started run in the shared poll scheduler: its reports, failures and deadline go to the machine. */
export function createTurnPolls(deps: TurnPollsDeps) {
  const { poller, clock, metrics } = deps;

  /** Polls the run at the normal pace until its deadline (once: the scheduler polls again by itself). */
  function follow(entry: TurnInFlight): void {
    if (entry.polled) return;
    deps.hold(entry);
    deps.progress.follow(entry.turn);
    add(entry, entry.turn.deadlineAt, 'normal', { type: 'deadline-passed', watchLate: deps.lateWatchMs > 0 });
  }

  /** Past the deadline: polled at the slow pace until the watch ends. */
  function watchLate(entry: TurnInFlight): void {
    add(entry, entry.turn.watchUntil ?? clock.now(), 'late', { type: 'watch-ended' });
  }

  function add(entry: TurnInFlight, deadlineAt: number, pace: 'normal' | 'late', onDeadline: TurnEvent) {
    const { turnId, agentId, sessionId, connection, teamId } = entry.turn;
    entry.polled = true;
    const on = connection !== undefined ? { connection } : {};
    poller.add(
      { id: turnId, agentId, sessionId: sessionId ?? '', ...on, teamId, deadlineAt, pace },
      {
        // A stop pressed on another replica reaches the holder through the store, at its next poll.
        onReport: async (report) => {
          const stopped = await deps.ledger.isStopped(turnId).catch(() => false);
          await deps.feed(entry, stopped ? STOP : { type: 'status-report', report });
        },
        onError: async (error) => {
          const code = deps.errorCode(error);
          metrics.statusPoll({ ok: false, errorCode: code });
          metrics.serviceError(code);
          await deps.feed(entry, { type: 'poll-failed', error, permanent: deps.isPermanentPollError(error) });
        },
        onDeadline: () => deps.feed(entry, onDeadline),
      },
    );
  }

  return { follow, watchLate };
}
