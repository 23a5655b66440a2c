import type {
  AgentRunsPort,
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
import { TERMINAL_STATUSES } from './ports.js';
import { clearTurn, DELIVERED_TTL_MS, DELIVERY_CLAIM_TTL_MS, lockNames } from './turn-lifecycle.js';
import { isStaleReport } from './turn-machine.js';

/** The scheduler as delivery uses it (see poll-scheduler.ts). */
export interface StatusPoller {
  add(
    entry: { id: string; agentId: string; sessionId: string; deadlineAt: number },
    handlers: {
      onReport(report: RunStatusReport): Promise<'stop' | undefined>;
      onError(error: unknown, attempt: number): Promise<'stop' | undefined>;
      onDeadline(): Promise<void>;
    },
  ): void;
  remove(id: string): void;
  has(id: string): boolean;
  ids?(): string[];
}

/** One coalesced progress update of a turn's progress message. */
export interface ProgressUpdate {
  where: ThreadLocation;
  ts: string;
  steps: number;
  elapsedMs: number;
}

/** The progress throttle as delivery uses it (see progress-throttle.ts). */
export interface ProgressSink {
  offer(key: string, payload: ProgressUpdate): void;
  cancel(key: string): Promise<void>;
}

export interface TurnDeliveryDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  output: ThreadOutput;
  poller: StatusPoller;
  progress: ProgressSink;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  settings: { instanceId: string };
  newReferenceId: () => string;
  /** Error codes after which polling a session is pointless (token rejected, unknown session…). */
  isPermanentPollError: (error: unknown) => boolean;
  errorCode: (error: unknown) => string;
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
 */
export function createTurnDelivery(deps: TurnDeliveryDeps) {
  const { store, output, poller, progress, clock, logger, metrics, settings } = deps;
  const me = settings.instanceId;
  const lastSteps = new Map<string, number>();

  function track(turn: TurnRecord, options: { takenOver: boolean }): void {
    const sessionId = turn.sessionId;
    if (!sessionId) return;
    lastSteps.set(turn.turnId, 0);
    const state = { takenOver: options.takenOver };
    poller.add(
      { id: turn.turnId, agentId: turn.agentId, sessionId, deadlineAt: turn.deadlineAt },
      {
        onReport: (report) => onReport(turn, report, state),
        onError: (error) => onPollError(turn, error),
        onDeadline: () =>
          finishWithNotice(turn, { kind: 'deadline', waitedMs: clock.now() - turn.startedAt }, 'deadline'),
      },
    );
    metrics.turnsInFlight(lastSteps.size);
  }

  async function onReport(turn: TurnRecord, report: RunStatusReport, state: { takenOver: boolean }) {
    metrics.statusPoll({ ok: true });
    // Right after a follow-up the service may still show the previous turn's final status.
    if (turn.kind === 'followUp' && isStaleReport(report, turn.previousFinal)) return undefined;
    if (!TERMINAL_STATUSES.has(report.status)) {
      showProgress(turn, report);
      return undefined;
    }
    try {
      await deliver(turn, report, state.takenOver);
      return 'stop' as const;
    } catch (error) {
      // Slack refused the post: release the claim and let the next poll (which repeats the
      // terminal status) try again, checking the thread first for parts that did land.
      state.takenOver = true;
      await store.unlock(lockNames.delivery(turn.turnId), me);
      logger.error(
        { err: error, threadKey: turn.threadKey, turnId: turn.turnId },
        'delivery failed; will retry',
      );
      return undefined;
    }
  }

  function showProgress(turn: TurnRecord, report: RunStatusReport): void {
    const steps = report.totalSteps ?? 0;
    if (report.status !== 'loading' || steps <= (lastSteps.get(turn.turnId) ?? 0)) return;
    lastSteps.set(turn.turnId, steps);
    if (turn.progressTs) {
      progress.offer(turn.turnId, {
        where: where(turn),
        ts: turn.progressTs,
        steps,
        elapsedMs: clock.now() - turn.startedAt,
      });
    }
  }

  async function onPollError(turn: TurnRecord, error: unknown) {
    const code = deps.errorCode(error);
    metrics.statusPoll({ ok: false, errorCode: code });
    metrics.serviceError(code);
    if (!deps.isPermanentPollError(error)) return undefined;
    const referenceId = deps.newReferenceId();
    logger.error(
      { err: error, threadKey: turn.threadKey, sessionId: turn.sessionId, referenceId },
      'polling stopped',
    );
    await finishWithNotice(turn, { kind: 'service-error', error, referenceId }, 'service_error');
    return 'stop' as const;
  }

  /** Posts the outcome once; returns false when another instance holds or finished delivery. */
  async function deliver(turn: TurnRecord, report: RunStatusReport, takenOver: boolean): Promise<boolean> {
    const seenAt = clock.now();
    if (!(await claimDelivery(turn))) return false;
    const log = logger.child({ threadKey: turn.threadKey, sessionId: turn.sessionId, turnId: turn.turnId });
    await progress.cancel(turn.turnId);
    if (report.status === 'done') {
      const already = takenOver ? await output.findPostedAnswer(where(turn), turn.turnId) : [];
      const parts =
        already.length > 0
          ? already
          : await output.postAnswer(where(turn), { markdown: report.message ?? '', turnId: turn.turnId });
      await Promise.all(parts.map((ts) => store.indexAnswer(turn.channel, ts, answerRef(turn))));
      metrics.deliveryLatency(clock.now() - seenAt);
      log.info(
        { parts: parts.length, chars: report.message?.length ?? 0, reposted: already.length === 0 },
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
    await finish(turn, report.status as TurnOutcome, report);
    return true;
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

  /** Marks the turn delivered, records the thread's final status, frees the thread. */
  async function finish(
    turn: TurnRecord,
    outcome: TurnOutcome | undefined,
    report?: RunStatusReport,
  ): Promise<void> {
    await store.tryLock(lockNames.delivered(turn.turnId), me, DELIVERED_TTL_MS);
    if (report) {
      const thread = await store.getThread(turn.threadKey);
      if (thread) await store.saveThread({ ...thread, lastFinal: report, updatedAt: clock.now() });
    }
    await clearTurn(store, turn, me);
    lastSteps.delete(turn.turnId);
    poller.remove(turn.turnId);
    metrics.turnsInFlight(lastSteps.size);
    if (outcome) metrics.turnFinished(outcome);
    // Last: once the progress message is gone, the thread is idle again.
    if (turn.progressTs) await output.removeProgress(where(turn), turn.progressTs).catch(() => undefined);
  }

  async function finishWithNotice(turn: TurnRecord, notice: TurnNotice, outcome: TurnOutcome): Promise<void> {
    if (!(await claimDelivery(turn))) return;
    await progress.cancel(turn.turnId);
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
    lastSteps.delete(turnId);
    void progress.cancel(turnId);
    metrics.turnsInFlight(lastSteps.size);
  }

  return { track, untrack, failStart, abandonLostTurn, tracking: () => [...lastSteps.keys()] };
}

export type TurnDelivery = ReturnType<typeof createTurnDelivery>;
