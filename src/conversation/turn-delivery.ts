import type { PollScheduler } from './poll-scheduler.js';
import type {
  Clock,
  ConversationMetrics,
  ConversationStore,
  Logger,
  RunStatusReport,
  ThreadLocation,
  ThreadOutput,
  TurnNotice,
  TurnOutcome,
  TurnRecord,
} from './ports.js';
import { clearTurn, DELIVERED_TTL_MS, DELIVERY_CLAIM_TTL_MS, lockNames } from './turn-lifecycle.js';
import { type TurnEffect, type TurnEvent, type TurnState, transition } from './turn-machine.js';
import type { TurnProgress } from './turn-progress.js';

export interface TurnDeliveryDeps {
  store: ConversationStore;
  output: ThreadOutput;
  poller: Pick<PollScheduler, 'add' | 'remove'>;
  progress: Pick<TurnProgress, 'follow' | 'step' | 'settle' | 'end'>;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  settings: { instanceId: string };
  newReferenceId: () => string;
  /** Error codes after which polling a session is pointless (token rejected, unknown session…). */
  isPermanentPollError: (error: unknown) => boolean;
  errorCode: (error: unknown) => string;
}

interface TrackedTurn {
  turn: TurnRecord;
  /** After a takeover or a failed post: look in the thread before posting. */
  takenOver: boolean;
  state: TurnState;
}

/** The machine state of a turn whose run has started (fresh start, resume or takeover alike). */
function runningState(turn: TurnRecord, sessionId: string): TurnState {
  return {
    phase: 'running',
    turnId: turn.turnId,
    sessionId,
    previousFinal: turn.previousFinal,
    awaitingFresh: turn.kind === 'followUp' && turn.previousFinal !== undefined,
    stepsShown: 0,
    awaitingDelivery: false,
  };
}

const where = (turn: TurnRecord): ThreadLocation => ({
  teamId: turn.teamId,
  channel: turn.channel,
  threadTs: turn.threadTs,
});

/**
 * From a started run to its outcome in the thread: polls through the shared scheduler,
 * shows progress, and posts the answer or notice exactly once (delivery claim + delivered mark,
 * and after a takeover a look at the thread for an answer already posted).
 *
 * Exactly once, and the window we accept. `chat.postMessage` has no idempotency key, so posting
 * and marking can never be one atomic step. The order is: claim (`delivery:<turn>`, SET NX PX,
 * {@link DELIVERY_CLAIM_TTL_MS}) → post → mark delivered → clear. While a claim is held no other
 * replica posts, however slow the post (a takeover racing a slow post waits, polling, until the
 * delivered mark appears or the claim lapses). A replica that takes over a lapsed claim first
 * reads the thread (`conversations.replies`) for answer parts tagged with the turn id and reposts
 * nothing when the whole answer is there. What remains:
 * - the holder dies mid-post: the answer is late by up to the claim's TTL (never lost);
 * - a multi-part answer cut off part-way is posted again in full (the first parts show twice);
 * - a notice (error, canceled, deadline) is not looked up in the thread, so a holder dying between
 *   posting it and the delivered mark, then the claim lapsing, shows that notice twice;
 * - a post Slack accepted but does not yet list in `conversations.replies` is posted again.
 */
export function createTurnDelivery(deps: TurnDeliveryDeps) {
  const { store, output, poller, progress, clock, logger, metrics, settings } = deps;
  const me = settings.instanceId;
  /** The pure turn machine's state of every turn this instance polls. */
  const tracked = new Map<string, TrackedTurn>();

  function track(turn: TurnRecord, options: { takenOver: boolean }): void {
    const sessionId = turn.sessionId;
    if (!sessionId) return;
    const entry: TrackedTurn = { turn, takenOver: options.takenOver, state: runningState(turn, sessionId) };
    tracked.set(turn.turnId, entry);
    progress.follow(turn);
    poller.add(
      { id: turn.turnId, agentId: turn.agentId, sessionId, deadlineAt: turn.deadlineAt },
      {
        onReport: (report) => step(entry, { type: 'status-report', report }),
        onError: (error) => onPollError(entry, error),
        onDeadline: async () => {
          await step(entry, { type: 'deadline-passed' });
        },
      },
    );
    metrics.turnsInFlight(tracked.size);
  }

  async function onPollError(entry: TrackedTurn, error: unknown) {
    const code = deps.errorCode(error);
    metrics.statusPoll({ ok: false, errorCode: code });
    metrics.serviceError(code);
    return step(entry, { type: 'poll-failed', error, permanent: deps.isPermanentPollError(error) });
  }

  /** Feeds an event to the turn machine and carries out its effects; 'stop' ends polling. */
  async function step(entry: TrackedTurn, event: TurnEvent): Promise<'stop' | undefined> {
    if (event.type === 'status-report') metrics.statusPoll({ ok: true });
    const { state, effects } = transition(entry.state, event);
    entry.state = state;
    let verdict: 'stop' | undefined;
    for (const effect of effects) {
      if ((await perform(entry, effect)) === 'stop') verdict = 'stop';
    }
    return verdict;
  }

  async function perform(entry: TrackedTurn, effect: TurnEffect): Promise<'stop' | undefined> {
    const { turn } = entry;
    switch (effect.type) {
      case 'show-progress':
        progress.step(turn, effect.steps);
        return undefined;
      case 'deliver-answer':
      case 'deliver-outcome':
        return deliverOrRetry(entry, effect.report);
      case 'notify-poll-failed': {
        const referenceId = deps.newReferenceId();
        logger.error(
          { err: effect.error, threadKey: turn.threadKey, sessionId: turn.sessionId, referenceId },
          'polling stopped',
        );
        await finishWithNotice(
          turn,
          { kind: 'service-error', error: effect.error, referenceId },
          'service_error',
        );
        return 'stop';
      }
      case 'notify-deadline':
        await finishWithNotice(
          turn,
          { kind: 'deadline', waitedMs: clock.now() - turn.startedAt },
          'deadline',
        );
        return 'stop';
      default:
        // schedule-poll: the scheduler polls again by itself unless a handler says 'stop'.
        return undefined;
    }
  }

  async function deliverOrRetry(entry: TrackedTurn, report: RunStatusReport): Promise<'stop' | undefined> {
    try {
      if ((await deliver(entry.turn, report, entry.takenOver)) || !tracked.has(entry.turn.turnId))
        return 'stop';
      // Another instance holds the delivery claim: a slow post, or one cut short by its death.
      // Keep polling (the next poll repeats the terminal status): once it marks the turn delivered
      // we stop; once its claim is released or expires we take over, looking in the thread first.
      entry.takenOver = true;
      entry.state = runningState(entry.turn, entry.turn.sessionId ?? '');
      return undefined;
    } catch (error) {
      // Slack refused the post: release the claim and let the next poll (which repeats the
      // terminal status) try again, checking the thread first for parts that did land.
      entry.takenOver = true;
      entry.state = runningState(entry.turn, entry.turn.sessionId ?? '');
      await store.unlock(lockNames.delivery(entry.turn.turnId), me);
      logger.error(
        { err: error, threadKey: entry.turn.threadKey, turnId: entry.turn.turnId },
        'delivery failed; will retry',
      );
      return undefined;
    }
  }

  /** Posts the outcome once; returns false when another instance holds or finished delivery. */
  async function deliver(turn: TurnRecord, report: RunStatusReport, takenOver: boolean): Promise<boolean> {
    const seenAt = clock.now();
    if (!(await claimDelivery(turn))) return false;
    const log = logger.child({ threadKey: turn.threadKey, sessionId: turn.sessionId, turnId: turn.turnId });
    await progress.settle(turn.turnId);
    await releaseThread(turn, report);
    if (report.status === 'done') {
      const already = takenOver ? await output.findPostedAnswer(where(turn), turn.turnId) : [];
      const parts =
        already.length > 0
          ? already
          : await output.postAnswer(where(turn), {
              markdown: report.message ?? '',
              turnId: turn.turnId,
              notes: turn.filesNotSent ? ['files-not-sent'] : [],
              timerange: turn.timerange,
            });
      await Promise.all(parts.map((ts) => store.indexAnswer(turn.channel, ts, answerRef(turn))));
      metrics.deliveryLatency(clock.now() - seenAt);
      log.info(
        { parts: parts.length, chars: report.message?.length ?? 0, foundInThread: already.length > 0 },
        'answer delivered',
      );
    } else {
      const notice: TurnNotice =
        report.status === 'error'
          ? { kind: 'run-error', reason: report.message ?? '' }
          : { kind: 'canceled' };
      await output.postNotice(where(turn), notice, turn.turnId);
      log.info({ status: report.status }, 'turn ended without an answer');
    }
    await finish(turn, report.status as TurnOutcome);
    return true;
  }

  /**
   * Frees the thread for its next turn (recording the final status the stale rule compares with)
   * before the outcome shows: whoever reads the answer and replies at once is never refused.
   */
  async function releaseThread(turn: TurnRecord, report?: RunStatusReport): Promise<void> {
    if (report) {
      const thread = await store.getThread(turn.threadKey);
      if (thread) await store.saveThread({ ...thread, lastFinal: report, updatedAt: clock.now() });
    }
    await store.unlock(lockNames.thread(turn.threadKey), turn.turnId);
  }

  async function claimDelivery(turn: TurnRecord): Promise<boolean> {
    if (await store.lockOwner(lockNames.delivered(turn.turnId))) {
      await finish(turn, undefined);
      return false;
    }
    return store.tryLock(lockNames.delivery(turn.turnId), me, DELIVERY_CLAIM_TTL_MS);
  }

  function answerRef(turn: TurnRecord) {
    return {
      threadKey: turn.threadKey,
      agentId: turn.agentId,
      sessionId: turn.sessionId ?? '',
      turnId: turn.turnId,
    };
  }

  /** Marks the turn delivered and clears its records, leases and progress (message or status). */
  async function finish(turn: TurnRecord, outcome: TurnOutcome | undefined): Promise<void> {
    await store.tryLock(lockNames.delivered(turn.turnId), me, DELIVERED_TTL_MS);
    await clearTurn(store, turn, me);
    tracked.delete(turn.turnId);
    poller.remove(turn.turnId);
    metrics.turnsInFlight(tracked.size);
    if (outcome) metrics.turnFinished(outcome);
    await progress.end(turn, { clearStatus: outcome !== undefined && outcome !== 'done' });
  }

  async function finishWithNotice(turn: TurnRecord, notice: TurnNotice, outcome: TurnOutcome): Promise<void> {
    if (!(await claimDelivery(turn))) {
      // Another instance is posting this turn's outcome: leave the turn to it (and, should it
      // die, to whoever adopts the turn once our lease is gone).
      untrack(turn.turnId);
      await store.unlock(lockNames.lease(turn.turnId), me);
      return;
    }
    await progress.settle(turn.turnId);
    await releaseThread(turn);
    await output.postNotice(where(turn), notice, turn.turnId);
    await finish(turn, outcome);
  }

  /** The start or follow-up request failed: say why in the thread and free it. */
  async function failStart(turn: TurnRecord, error: unknown): Promise<void> {
    const referenceId = deps.newReferenceId();
    metrics.serviceError(deps.errorCode(error));
    logger.error(
      { err: error, threadKey: turn.threadKey, turnId: turn.turnId, referenceId },
      'run start failed',
    );
    await finishWithNotice(turn, { kind: 'service-error', error, referenceId }, 'service_error');
  }

  /** A turn found without a session id after a restart: its run may never have started. */
  async function abandonLostTurn(turn: TurnRecord): Promise<void> {
    logger.warn({ threadKey: turn.threadKey, turnId: turn.turnId }, 'turn lost before its run started');
    await finishWithNotice(turn, { kind: 'lost-turn' }, 'lost');
  }

  /** Stops polling a turn without touching its stored state (another instance took it). */
  function untrack(turnId: string): void {
    poller.remove(turnId);
    tracked.delete(turnId);
    void progress.settle(turnId);
    metrics.turnsInFlight(tracked.size);
  }

  return { track, untrack, failStart, abandonLostTurn, tracking: () => [...tracked.keys()] };
}

export type TurnDelivery = ReturnType<typeof createTurnDelivery>;
