import { boundLogger } from './bound-logger.js';
import { DONE_WAITING } from './clock.js';
import { deliverWhileTransient, type RetryResult } from './outcome-retry.js';
import { outputFailureCode } from './output-error.js';
import type { PollScheduler } from './poll-scheduler.js';
import type {
  Clock,
  ConversationMetrics,
  ConversationStore,
  Logger,
  OutputStyle,
  RunStatusReport,
  ThreadLocation,
  ThreadOutput,
  TurnNotice,
  TurnOutcome,
  TurnRecord,
} from './ports.js';
import { createThreadCheck } from './thread-check.js';
import { createTurnLedger, DELIVERY_CLAIM_TTL_MS } from './turn-ledger.js';
import {
  stateOfRecord,
  storedPhase,
  type TurnEffect,
  type TurnEvent,
  type TurnState,
  transition,
} from './turn-machine.js';
import type { TurnProgress } from './turn-progress.js';

export interface TurnDeliveryDeps {
  store: ConversationStore;
  output: ThreadOutput;
  poller: Pick<PollScheduler, 'add' | 'remove'>;
  progress: Pick<TurnProgress, 'follow' | 'step' | 'settle' | 'end'>;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  /**
   * `lateWatchMs`: how long past its deadline a run is still watched for a late answer (0: the
   * deadline ends the turn). Default 0.
   */
  settings: { instanceId: string; lateWatchMs?: number | undefined };
  newReferenceId: () => string;
  /** Error codes after which polling a session is pointless (token rejected, unknown session…). */
  isPermanentPollError: (error: unknown) => boolean;
  errorCode: (error: unknown) => string;
  /** Default `Math.random` (the jitter of delivery retries). */
  random?: (() => number) | undefined;
}

/** What ends a turn in the thread: the run's terminal report, or a notice of ours. */
type FinalOutcome =
  | { kind: 'report'; report: RunStatusReport; late: boolean }
  | { kind: 'notice'; notice: TurnNotice; outcome: TurnOutcome };

interface TrackedTurn {
  turn: TurnRecord;
  /** After a takeover or a failed post: look in the thread before posting. */
  takenOver: boolean;
  state: TurnState;
  /** Ends this turn's waits between delivery attempts (lease lost, shutdown). */
  abort: AbortController;
  /** The thread lock is given back (once only: a newer turn may hold it by the next attempt). */
  released: boolean;
  /** The deadline notice on its way: a late outcome waits for it, so the thread reads in order. */
  noticeChain: Promise<void>;
}

/** Another replica holds this turn's delivery claim: wait, then look again. */
class ClaimedElsewhere extends Error {
  constructor() {
    super('delivery claimed by another instance');
    this.name = 'ClaimedElsewhere';
  }
}

const where = (turn: TurnRecord): ThreadLocation => ({
  teamId: turn.teamId,
  channel: turn.channel,
  threadTs: turn.threadTs,
});

/**
 * From a started run to its outcome in the thread: polls through the shared scheduler, shows
 * progress, and delivers every outcome a person must see — the answer, the agent's error or
 * cancel, the deadline and watch-ended notices, a failed start, a lost turn — the same way:
 * retried while Slack fails transiently, in the plain style once if Slack refuses the rendering,
 * given up at once (turn dropped, thread released, one `warn`) if Slack refuses for good, and
 * exactly once (delivery claim + delivered mark, and after a takeover or a failed post a look at
 * the thread for what already landed).
 *
 * Exactly once, and the window we accept. `chat.postMessage` has no idempotency key, so posting
 * and marking can never be one atomic step. The order is: claim (`delivery:<turn>`, SET NX PX,
 * {@link DELIVERY_CLAIM_TTL_MS}) → post → mark delivered → clear. While a claim is held no other
 * replica posts, however slow the post (another replica waits until the delivered mark appears or
 * the claim lapses). Whoever posts after a takeover or a failed attempt first reads the thread
 * (`conversations.replies`) for the answer parts or the notice tagged with the turn id, and for
 * progress messages its record does not name (removed when the turn ends: thread-check.ts). What
 * remains:
 * - the holder dies mid-post: the outcome is late by up to the claim's TTL (never lost);
 * - a multi-part answer cut off part-way is posted again in full (the first parts show twice);
 * - a post Slack accepted but does not yet list in `conversations.replies` is posted again.
 */
export function createTurnDelivery(deps: TurnDeliveryDeps) {
  const { store, output, poller, progress, clock, logger, metrics, settings } = deps;
  const me = settings.instanceId;
  const lateWatchMs = settings.lateWatchMs ?? 0;
  const threadCheck = createThreadCheck({ output, logger });
  const ledger = createTurnLedger({ store, clock, instanceId: me });
  /** The pure turn machine's state of every turn this instance polls or delivers. */
  const tracked = new Map<string, TrackedTurn>();
  /** Deliveries under way, so stop() can wait for them. */
  const running = new Set<Promise<void>>();

  function newEntry(turn: TurnRecord, takenOver: boolean): TrackedTurn {
    const entry: TrackedTurn = {
      turn,
      takenOver,
      state: stateOfRecord(turn),
      abort: new AbortController(),
      released: false,
      noticeChain: Promise.resolve(),
    };
    tracked.get(turn.turnId)?.abort.abort(DONE_WAITING);
    tracked.set(turn.turnId, entry);
    metrics.turnsInFlight(tracked.size);
    return entry;
  }

  function track(turn: TurnRecord, options: { takenOver: boolean }): void {
    if (!turn.sessionId) return;
    const entry = newEntry(turn, options.takenOver);
    if (entry.state.phase === 'late') {
      // Resumed past its deadline: the thread was (or is being) told; keep watching slowly.
      if (!turn.deadlineNoticed) entry.noticeChain = background(postDeadlineNotice(entry));
      watchLate(entry);
      return;
    }
    progress.follow(turn);
    poll(entry, { deadlineAt: turn.deadlineAt, pace: 'normal' }, () => ({
      type: 'deadline-passed',
      watchLate: lateWatchMs > 0,
    }));
  }

  function poll(
    entry: TrackedTurn,
    at: { deadlineAt: number; pace: 'normal' | 'late' },
    onDeadline: () => TurnEvent,
  ) {
    const { turn } = entry;
    poller.add(
      { id: turn.turnId, agentId: turn.agentId, sessionId: turn.sessionId ?? '', ...at },
      {
        onReport: (report) => step(entry, { type: 'status-report', report }),
        onError: (error) => onPollError(entry, error),
        onDeadline: async () => {
          await step(entry, onDeadline());
        },
      },
    );
  }

  function watchLate(entry: TrackedTurn): void {
    poll(entry, { deadlineAt: entry.turn.watchUntil ?? clock.now(), pace: 'late' }, () => ({
      type: 'watch-ended',
    }));
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
        // The run is terminal: polling ends here, delivery goes on (and retries) on its own.
        deliverInBackground(entry, { kind: 'report', report: effect.report, late: effect.late === true });
        return 'stop';
      case 'notify-poll-failed': {
        const referenceId = deps.newReferenceId();
        logger.error(
          { err: effect.error, threadKey: turn.threadKey, sessionId: turn.sessionId, referenceId },
          'polling stopped',
        );
        const notice: TurnNotice = { kind: 'service-error', error: effect.error, referenceId };
        deliverInBackground(entry, { kind: 'notice', notice, outcome: 'service_error' });
        return 'stop';
      }
      case 'notify-deadline':
        if (effect.watching) {
          await startLateWatch(entry);
          return undefined;
        }
        deliverInBackground(entry, {
          kind: 'notice',
          notice: { kind: 'deadline', waitedMs: clock.now() - turn.startedAt },
          outcome: 'deadline',
        });
        return 'stop';
      case 'watch-late':
        watchLate(entry);
        return undefined;
      case 'notify-watch-ended':
        deliverInBackground(entry, {
          kind: 'notice',
          notice: { kind: 'watch-ended', waitedMs: clock.now() - turn.startedAt },
          outcome: 'deadline',
        });
        return 'stop';
      case 'notify-start-failed':
        notifyStartFailed(entry, effect.error);
        return 'stop';
      case 'notify-lost':
        logger.warn({ threadKey: turn.threadKey, turnId: turn.turnId }, 'turn lost before its run started');
        deliverInBackground(entry, { kind: 'notice', notice: { kind: 'lost-turn' }, outcome: 'lost' });
        return 'stop';
      default:
        // schedule-poll: the scheduler polls again by itself unless a handler says 'stop'.
        return undefined;
    }
  }

  /** Runs `work` beside the caller, so stop() can wait for it; its failures are logged. */
  function background(work: Promise<void>): Promise<void> {
    const settled = work.catch((error: unknown) => logger.error({ err: error }, 'turn delivery failed'));
    running.add(settled);
    void settled.finally(() => running.delete(settled));
    return settled;
  }

  function deliverInBackground(entry: TrackedTurn, outcome: FinalOutcome): void {
    void background(deliverFinal(entry, outcome));
  }

  /** Past the deadline with a late watch: record it (a takeover keeps watching), tell the thread. */
  async function startLateWatch(entry: TrackedTurn): Promise<void> {
    entry.turn = {
      ...entry.turn,
      phase: storedPhase(entry.state) ?? 'late',
      watchUntil: clock.now() + lateWatchMs,
    };
    // The record lets a takeover keep watching; with the store down this instance watches on anyway.
    await ledger
      .saveTurn(entry.turn)
      .catch((error: unknown) =>
        logger.warn({ err: error, turnId: entry.turn.turnId }, 'late watch not recorded; watching on'),
      );
    entry.noticeChain = background(postDeadlineNotice(entry));
  }

  /** The "still working, still watching" notice: delivered like an outcome, but the turn goes on. */
  async function postDeadlineNotice(entry: TrackedTurn): Promise<void> {
    const { turn } = entry;
    await progress.settle(turn.turnId);
    const notice: TurnNotice = {
      kind: 'deadline',
      waitedMs: clock.now() - turn.startedAt,
      watchForMs: Math.max(0, (turn.watchUntil ?? 0) - clock.now()),
    };
    const result = await retrying(entry, async (style) => {
      if (entry.takenOver && (await threadCheck.look(turn)).notices.includes('deadline')) return;
      await output.postNotice(where(turn), notice, turn.turnId, style);
    });
    if (!result.ok) {
      if (result.reason === 'permanent') await dropUndeliverable(entry, result.code);
      return;
    }
    entry.turn = { ...entry.turn, deadlineNoticed: true, progressTs: undefined };
    if (tracked.get(turn.turnId) === entry) await ledger.saveTurn(entry.turn);
    // The indicator said "working"; from now on the notice says it, and no progress is shown.
    if (turn.progressTs) await output.removeProgress(where(turn), turn.progressTs).catch(() => undefined);
    await threadCheck.removeStrays(turn);
  }

  /** Delivers what ends the turn, retrying while Slack fails transiently; then clears the turn. */
  async function deliverFinal(entry: TrackedTurn, outcome: FinalOutcome): Promise<void> {
    await entry.noticeChain;
    if (tracked.get(entry.turn.turnId) !== entry) return;
    const seenAt = clock.now();
    const result = await retrying(entry, (style) => deliverOnce(entry, outcome, style));
    if (result.ok) {
      if (result.value && outcome.kind === 'report' && outcome.report.status === 'done')
        metrics.deliveryLatency(clock.now() - seenAt);
      return;
    }
    if (result.reason === 'permanent') await dropUndeliverable(entry, result.code);
  }

  /** One delivery attempt. Returns false when another instance had already delivered it. */
  async function deliverOnce(
    entry: TrackedTurn,
    outcome: FinalOutcome,
    style: OutputStyle,
  ): Promise<boolean> {
    const { turn } = entry;
    if (await ledger.isDelivered(turn.turnId)) {
      await finish(entry, undefined);
      return false;
    }
    if (!(await ledger.deliveryClaim(turn.turnId).take(DELIVERY_CLAIM_TTL_MS))) {
      throw new ClaimedElsewhere();
    }
    await progress.settle(turn.turnId);
    await releaseThread(entry, true);
    const log = boundLogger(logger, {
      threadKey: turn.threadKey,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
    });
    if (outcome.kind === 'report' && outcome.report.status === 'done') {
      const { report } = outcome;
      const already = entry.takenOver ? (await threadCheck.look(turn)).answer : [];
      const parts =
        already.length > 0
          ? already
          : await output.postAnswer(
              where(turn),
              {
                markdown: report.message ?? '',
                turnId: turn.turnId,
                notes: turn.filesNotSent ? ['files-not-sent'] : [],
                timerange: turn.timerange,
                style,
                lateAfterMs: outcome.late ? clock.now() - turn.startedAt : undefined,
              },
              (ts) => indexEarly(turn, ts),
            );
      await Promise.all(parts.map((ts) => store.indexAnswer(turn.channel, ts, answerRef(turn))));
      log.info(
        { parts: parts.length, chars: report.message?.length ?? 0, foundInThread: already.length > 0, style },
        outcome.late ? 'late answer delivered' : 'answer delivered',
      );
      await finish(entry, 'done');
      return true;
    }
    const notice = noticeOf(outcome);
    const posted = entry.takenOver && (await threadCheck.look(turn)).notices.includes(notice.kind);
    if (!posted) await output.postNotice(where(turn), notice, turn.turnId, style);
    log.info({ notice: notice.kind, style }, 'turn ended without an answer');
    await finish(entry, outcome.kind === 'report' ? (outcome.report.status as TurnOutcome) : outcome.outcome);
    return true;
  }

  function noticeOf(outcome: FinalOutcome): TurnNotice {
    if (outcome.kind === 'notice') return outcome.notice;
    return outcome.report.status === 'error'
      ? { kind: 'run-error', reason: outcome.report.message ?? '' }
      : { kind: 'canceled' };
  }

  /** Tries `attempt` until it lands; between tries the claim is let go and the thread read first. */
  function retrying<T>(
    entry: TrackedTurn,
    attempt: (style: OutputStyle) => Promise<T>,
  ): Promise<RetryResult<T>> {
    const { turn } = entry;
    return deliverWhileTransient(attempt, {
      clock,
      signal: entry.abort.signal,
      random: deps.random,
      onRetry: async (error, attempts) => {
        entry.takenOver = true;
        // With the store down the claim stays ours: our next try takes it again, or it lapses.
        await ledger
          .deliveryClaim(turn.turnId)
          .release()
          .catch(() => undefined);
        if (error instanceof ClaimedElsewhere) return;
        logger.warn(
          {
            err: error,
            code: outputFailureCode(error),
            threadKey: turn.threadKey,
            turnId: turn.turnId,
            attempts,
          },
          'delivery failed; will retry',
        );
      },
    });
  }

  /**
   * Slack refused the outcome for good (the bot left the channel, the token was revoked…): nothing
   * more can be shown in this thread, so stop polling, drop the turn and free the thread.
   */
  async function dropUndeliverable(entry: TrackedTurn, code: string): Promise<void> {
    const { turn } = entry;
    logger.warn(
      {
        threadKey: turn.threadKey,
        turnId: turn.turnId,
        sessionId: turn.sessionId,
        channel: turn.channel,
        code,
      },
      'Slack refused the outcome for good; turn dropped',
    );
    metrics.deliveryDropped(code);
    poller.remove(turn.turnId);
    // The store may be down as well: the thread is freed and the turn cleared once it answers.
    await retrying(entry, async () => {
      await releaseThread(entry, false);
      // One try at the progress indicator (it fails too when the bot left the channel).
      await finish(entry, 'undeliverable');
    });
  }

  /**
   * Frees the thread for its next turn (recording what the machine decided the thread keeps: the
   * final status the stale rule compares with, or that the run was left open) before the outcome
   * shows: whoever reads it and replies at once is never refused. Only once per turn: by a retry
   * a newer turn may own the thread. `record`: false when the outcome is given up on.
   */
  async function releaseThread(entry: TrackedTurn, record: boolean): Promise<void> {
    if (entry.released) return;
    const { turn, state } = entry;
    const change = record && state.phase === 'delivering' ? state.thread : undefined;
    const thread = change ? await store.getThread(turn.threadKey) : undefined;
    if (thread && change?.kind === 'final') {
      await ledger.saveFinal(thread, change.lastFinal);
    } else if (thread && change?.kind === 'run-open') {
      await ledger.saveRunOpen(thread, turn.startedAt);
    }
    await ledger.threadLock(turn.threadKey, turn.turnId).release();
    entry.released = true;
  }

  /**
   * Indexes one answer part as soon as Slack accepted it, so a reaction or click on it finds its run
   * while later parts are still on their way (a long answer, a 429 between parts). Best effort:
   * a failure here must not fail the post (a retry would show the first parts twice); the index is
   * written again for every part once the answer is complete.
   */
  async function indexEarly(turn: TurnRecord, ts: string): Promise<void> {
    await store
      .indexAnswer(turn.channel, ts, answerRef(turn))
      .catch((error: unknown) =>
        logger.warn(
          { err: error, threadKey: turn.threadKey, turnId: turn.turnId },
          'answer part not indexed yet',
        ),
      );
  }

  function answerRef(turn: TurnRecord) {
    return {
      threadKey: turn.threadKey,
      agentId: turn.agentId,
      sessionId: turn.sessionId ?? '',
      turnId: turn.turnId,
    };
  }

  /** Marks the turn delivered and clears its records, leases and progress indicator. */
  async function finish(entry: TrackedTurn, outcome: TurnOutcome | undefined): Promise<void> {
    const { turn } = entry;
    entry.state = transition(entry.state, { type: 'delivered' }).state;
    await ledger.markDelivered(turn.turnId);
    await ledger.clearTurn(turn);
    if (tracked.get(turn.turnId) === entry) tracked.delete(turn.turnId);
    poller.remove(turn.turnId);
    metrics.turnsInFlight(tracked.size);
    if (outcome) metrics.turnFinished(outcome);
    await progress.end(turn, { clearStatus: outcome !== undefined && outcome !== 'done' });
    await threadCheck.removeStrays(turn);
  }

  /** Says in the thread why the start or follow-up request failed, and frees it. */
  function notifyStartFailed(entry: TrackedTurn, error: unknown): void {
    const { turn } = entry;
    const referenceId = deps.newReferenceId();
    metrics.serviceError(deps.errorCode(error));
    logger.error(
      { err: error, threadKey: turn.threadKey, turnId: turn.turnId, referenceId },
      'run start failed',
    );
    const notice: TurnNotice = { kind: 'service-error', error, referenceId };
    deliverInBackground(entry, { kind: 'notice', notice, outcome: 'service_error' });
  }

  /** The start or follow-up request of a turn (still `starting`) failed. */
  async function failStart(turn: TurnRecord, error: unknown): Promise<void> {
    await step(newEntry(turn, false), { type: 'run-start-failed', error });
  }

  /**
   * A turn found still starting (or without a session id) after a restart: its run may never
   * have started. Another replica may have posted the notice before dying: look in the thread first.
   */
  async function abandonLostTurn(turn: TurnRecord): Promise<void> {
    await step(newEntry(turn, true), { type: 'start-lost' });
  }

  /** Stops polling and delivering a turn without touching its stored state (another instance took it). */
  function untrack(turnId: string): void {
    poller.remove(turnId);
    tracked.get(turnId)?.abort.abort(DONE_WAITING);
    tracked.delete(turnId);
    threadCheck.forget(turnId);
    void progress.settle(turnId);
    metrics.turnsInFlight(tracked.size);
  }

  /** Ends every wait between delivery attempts and resolves once attempts under way settled. */
  async function stop(): Promise<void> {
    for (const entry of tracked.values()) entry.abort.abort();
    await Promise.all([...running]);
  }

  return {
    track,
    untrack,
    failStart,
    abandonLostTurn,
    stop,
    tracking: () => [...tracked.keys()],
    /** The record of a turn this instance polls or delivers (recovery saves it again if Redis lost it). */
    turnOf: (turnId: string): TurnRecord | undefined => tracked.get(turnId)?.turn,
  };
}

export type TurnDelivery = ReturnType<typeof createTurnDelivery>;
