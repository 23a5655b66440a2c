import { createWorkUnderWay } from '../../runtime/work-under-way.js';
import type { PollScheduler } from '../polling/poll-contract.js';
import type { ConversationMetrics } from '../ports.js';
import type { TurnNotice } from '../thread-output-port.js';
import { createOutcomePoster, type OutcomePosterDeps } from './outcome-poster.js';
import type { FinalOutcome, TurnInFlight } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import { storedPhase } from './turn-machine.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';
import type { TurnEffect, TurnEvent } from './turn-states.js';

/** The machine's effects that end a turn: each posts one outcome (outcome-poster.ts). */
type EndingEffect = Extract<TurnEffect, { type: `deliver-${string}` | `notify-${string}` }>;

export interface TurnEffectsDeps extends Omit<OutcomePosterDeps, 'stopPolling'> {
  ledger: TurnLedger;
  poller: Pick<PollScheduler, 'add' | 'remove'>;
  progress: Pick<TurnProgress, 'follow' | 'step' | 'settle' | 'end'>;
  metrics: OutcomePosterDeps['metrics'] & Pick<ConversationMetrics, 'statusPoll' | 'serviceError'>;
  newReferenceId: () => string;
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

/**
 * The one place the turn machine's effects are carried out: the start (the entry's `start`), the
 * polls, the outcome (outcome-poster.ts). Results go back to the machine (`feed`).
 */
export function createTurnEffects(deps: TurnEffectsDeps) {
  const { clock, logger, poller } = deps;
  const poster = createOutcomePoster({ ...deps, stopPolling: (turnId) => poller.remove(turnId) });
  /** Posts under way, so `settled` can wait for them. */
  const running = createWorkUnderWay();

  async function perform(entry: TurnInFlight, effect: TurnEffect): Promise<void> {
    const { turn } = entry;
    switch (effect.type) {
      case 'check-previous-run': {
        const report = await entry.start?.check(effect.sessionId);
        return deps.feed(entry, { type: 'previous-run-checked', report });
      }
      case 'refuse-turn':
        return entry.start?.refuse();
      case 'start-run':
      case 'follow-up': {
        const previousFinal = 'previousFinal' in entry.state ? entry.state.previousFinal : undefined;
        const kind = effect.type === 'start-run' ? 'start' : 'followUp';
        entry.turn = recorded(entry, { kind, previousFinal });
        return entry.start?.send(entry);
      }
      case 'record-start':
        entry.turn = recorded(entry, { sessionId: effect.sessionId });
        return entry.start?.started(entry);
      case 'resume':
        logger.info(
          { threadKey: turn.threadKey, sessionId: effect.sessionId, turnId: turn.turnId },
          'resuming turn',
        );
        return deps.ledger.restoreSession(turn.threadKey, effect.sessionId);
      case 'schedule-poll':
        return follow(deps, entry);
      case 'watch-late':
        // Past the deadline: polled at the slow pace until the watch ends.
        return poll(deps, entry, entry.turn.watchUntil ?? clock.now(), 'late', { type: 'watch-ended' });
      case 'show-progress':
        entry.steps = effect.steps;
        return deps.progress.step(turn, effect.steps);
      default:
        if (effect.type === 'notify-deadline' && effect.watching) return noticeLateWatch(entry);
        return end(entry, outcomeOf(turn, effect, deps));
    }
  }

  /** Every outcome stops polling; the post goes on (and retries) beside the poller. */
  function end(entry: TurnInFlight, outcome: FinalOutcome): void {
    poller.remove(entry.turn.turnId);
    background(poster.post(entry, outcome));
  }

  /** Past the deadline with a late watch: record it (a takeover keeps watching), tell the thread once. */
  async function noticeLateWatch(entry: TurnInFlight): Promise<void> {
    await recordLateWatch(deps, entry);
    if (!entry.turn.deadlineNoticed) entry.noticeChain = background(poster.postDeadlineNotice(entry));
  }

  /** Runs `work` beside the caller, so `settled` can wait for it; its failures are logged. */
  function background(work: Promise<void>): Promise<void> {
    return running.track(
      work.catch((error: unknown) => logger.error({ err: error }, 'turn delivery failed')),
    );
  }

  return {
    perform,
    /** Another instance owns the turn now: what it finds in the thread is its own business. */
    forget: poster.forget,
    settled: running.settled,
  };
}

/** What a polled run reaches: the scheduler, the stop mark, the machine, the poll metrics. */
type PollDeps = Pick<
  TurnEffectsDeps,
  'poller' | 'ledger' | 'metrics' | 'feed' | 'errorCode' | 'isPermanentPollError'
>;

/** Following a run also makes it this instance's and shows it followed. */
type FollowDeps = PollDeps & Pick<TurnEffectsDeps, 'hold' | 'progress' | 'lateWatchMs'>;

/** Polls the run at the normal pace until its deadline (once: the scheduler polls again by itself). */
function follow(deps: FollowDeps, entry: TurnInFlight): void {
  if (entry.polled) return;
  deps.hold(entry);
  deps.progress.follow(entry.turn);
  poll(deps, entry, entry.turn.deadlineAt, 'normal', {
    type: 'deadline-passed',
    watchLate: deps.lateWatchMs > 0,
  });
}

/** A started run in the shared poll scheduler: its reports, failures and deadline go to the machine. */
function poll(
  deps: PollDeps,
  entry: TurnInFlight,
  deadlineAt: number,
  pace: 'normal' | 'late',
  onDeadline: TurnEvent,
): void {
  const { poller, ledger, metrics } = deps;
  const { turnId, agentId, sessionId, connection, teamId } = entry.turn;
  entry.polled = true;
  const on = connection !== undefined ? { connection } : {};
  poller.add(
    { id: turnId, agentId, sessionId: sessionId ?? '', ...on, teamId, deadlineAt, pace },
    {
      // A stop pressed on another replica reaches the holder through the store, at its next poll.
      onReport: async (report) => {
        const stopped = await ledger.isStopped(turnId).catch(() => false);
        await deps.feed(entry, stopped ? { type: 'stop-requested' } : { type: 'status-report', report });
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

/** The turn's record in the phase the machine has reached, with `changes` laid over it. */
const recorded = (entry: TurnInFlight, changes: Partial<TurnRecord>): TurnRecord => ({
  ...entry.turn,
  phase: storedPhase(entry.state) ?? entry.turn.phase,
  ...changes,
});

/** Past the deadline with a late watch: when the watch ends goes on the record, once. */
async function recordLateWatch(
  deps: Pick<TurnEffectsDeps, 'ledger' | 'clock' | 'logger' | 'lateWatchMs'>,
  entry: TurnInFlight,
): Promise<void> {
  if (entry.turn.watchUntil !== undefined) return;
  entry.turn = recorded(entry, { watchUntil: deps.clock.now() + deps.lateWatchMs });
  // The record lets a takeover keep watching; with the store down this instance watches on anyway.
  await deps.ledger.saveTurn(entry.turn).catch((error: unknown) => {
    deps.logger.warn({ err: error, turnId: entry.turn.turnId }, 'late watch not recorded; watching on');
  });
}

/** What an ending reads: the time, the log, and a reference id for a service error. */
type EndingContext = Pick<TurnEffectsDeps, 'clock' | 'logger' | 'newReferenceId'>;

/** What the thread is told for each way a turn ends, and the log line that goes with it. */
function outcomeOf(turn: TurnRecord, effect: EndingEffect, ctx: EndingContext): FinalOutcome {
  const { clock, logger } = ctx;
  const { threadKey, turnId, sessionId } = turn;
  const waitedMs = clock.now() - turn.startedAt;
  const notice = (shown: TurnNotice, outcome: TurnOutcome): FinalOutcome => ({
    kind: 'notice',
    notice: shown,
    outcome,
  });
  switch (effect.type) {
    case 'deliver-answer':
    case 'deliver-outcome':
      return { kind: 'report', report: effect.report, late: effect.late === true };
    case 'notify-poll-failed':
      return notice(serviceError(turn, effect.error, 'polling stopped', ctx), 'service_error');
    case 'notify-start-failed':
      return notice(serviceError(turn, effect.error, 'run start failed', ctx), 'service_error');
    case 'notify-lost':
      logger.warn({ threadKey, turnId }, 'turn lost before its run started');
      return notice({ kind: 'lost-turn' }, 'lost');
    case 'notify-deadline':
      return notice({ kind: 'deadline', waitedMs }, 'deadline');
    case 'notify-watch-ended':
      return notice({ kind: 'watch-ended', waitedMs }, 'deadline');
    case 'notify-stopped':
      logger.info({ threadKey, turnId, sessionId }, 'run stopped');
      return notice({ kind: 'stopped' }, 'stopped');
  }
}

/** The service failed the turn: logged with a reference id the thread's notice repeats. */
function serviceError(turn: TurnRecord, error: unknown, message: string, ctx: EndingContext): TurnNotice {
  const referenceId = ctx.newReferenceId();
  const { threadKey, turnId, sessionId } = turn;
  ctx.logger.error({ err: error, threadKey, turnId, sessionId, referenceId }, message);
  return { kind: 'service-error', error, referenceId };
}
