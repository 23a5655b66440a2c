import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { boundLogger } from '../../runtime/logger.js';
import { isDirectMessage } from '../access/audience.js';
import type { AgentSessions } from '../agent-session.js';
import { type ConnectionRuns, runsOn } from '../connection-runs.js';
import type { PreparedTurn } from '../context/turn-context.js';
import type {
  AgentRunsPort,
  ConversationMetrics,
  ReportDigest,
  RunInput,
  RunStatusReport,
} from '../ports.js';
import { threadKey as makeThreadKey } from '../thread-key.js';
import type { ThreadLocation, ThreadOutput } from '../thread-output-port.js';
import type { TurnDelivery } from './turn-delivery.js';
import type { TurnLedger } from './turn-ledger.js';
import { stateOfRecord, storedPhase, transition } from './turn-machine.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import type { ThreadRecord, TurnRecord } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';
import type { TurnEffect } from './turn-states.js';

export type ReadyTurn = Extract<PreparedTurn, { kind: 'ready' }>;

/** How long a started turn waits for Slack to accept its progress message before polling without it. */
const PROGRESS_WAIT_MS = 2_000;
/**
 * How long the status check of a run left open may take. The status request long-polls while the
 * run works; a finished run answers at once, so no answer by then means "still working".
 */
const OPEN_RUN_CHECK_MS = 5_000;

export interface RunStartDeps {
  ledger: TurnLedger;
  agent: AgentRunsPort;
  /** The other service connections' runs (threads started on one stay on it). */
  connections?: ConnectionRuns | undefined;
  output: Pick<ThreadOutput, 'removeProgress'>;
  delivery: Pick<TurnDelivery, 'track' | 'failStart'>;
  progress: Pick<TurnProgress, 'begin'>;
  /** The thread's agent session, set `processing` before the text status. @default none */
  sessions?: Pick<AgentSessions, 'begin'> | undefined;
  clock: Clock;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'turnStarted'>;
  settings: {
    instanceId: string;
    turnDeadlineMs: number;
    leaseTtlMs: number;
    lateWatchMs?: number | undefined;
  };
  newId: () => string;
  /** Tells the sender the thread is busy (how long its turn has been at it, if known). */
  refuseBusy(request: TurnRequest, workingForMs: number | undefined): void;
  /** Told when the run started (App Home). */
  observer?: Pick<TurnObserver, 'started'> | undefined;
}

/**
 * From a taken message to a polled run: the thread's busy lock, the status check of a run left
 * open, the durable turn record (stored before the run starts), the start or follow-up request
 * with the progress indicator beside it, and hand-off to delivery. The turn machine says whether
 * the turn starts a run, follows up or checks first, and the phase the started turn is stored in.
 */
export function createRunStart(deps: RunStartDeps) {
  const { ledger, output, delivery, clock, logger, metrics, settings, newId } = deps;
  const agentOf = (turn: TurnRecord) => runsOn(deps.agent, deps.connections, turn.connection, turn.teamId);

  /** The thread's busy lock, the open-run check, the durable records, then the run. */
  async function begin(
    request: TurnRequest,
    thread: ThreadRecord | undefined,
    prepared: ReadyTurn,
    spent: { giveBack(): Promise<void> },
  ): Promise<TurnRequestResult> {
    const where: ThreadLocation = {
      teamId: request.teamId,
      channel: request.channel,
      threadTs: request.threadTs,
    };
    const key = makeThreadKey(request.teamId, request.channel, request.threadTs);
    const { turn, effect } = newTurn(request, key, thread, prepared);
    const lockTtl = settings.turnDeadlineMs + (settings.lateWatchMs ?? 0) + 10 * 60 * 1000;
    const threadLock = ledger.threadLock(key, turn.turnId);
    if (!(await threadLock.take(lockTtl))) {
      await spent.giveBack();
      deps.refuseBusy(request, await workingFor(key));
      return 'busy';
    }
    if (effect?.type === 'check-previous-run' && thread) {
      const checked = await checkOpenRun(turn, thread);
      if (checked === 'busy') {
        await threadLock.release();
        await spent.giveBack();
        deps.refuseBusy(request, clock.now() - (thread.runOpenSince ?? clock.now()));
        return 'busy';
      }
      turn.previousFinal = checked;
    }
    await ledger.lease(turn.turnId).take(settings.leaseTtlMs);
    if (!thread) await ledger.createThread(newThread(request, key, turn));
    await ledger.saveTurn(turn);
    return start(turn, where, { message: request.prompt, ...prepared.context });
  }

  /** How long the turn holding the thread has been at it (for the busy notice), if known. */
  async function workingFor(key: string): Promise<number | undefined> {
    const holder = await ledger.turnHolding(key);
    return holder ? clock.now() - holder.startedAt : undefined;
  }

  /**
   * The thread's last run was left open (deadline, watch ended): read its status before anything
   * is sent (the seed's rule 2). Returns the digest of the run's final report (the stale rule's
   * reference), undefined when it could not be read (the follow-up then says what is wrong), or 'busy'.
   */
  async function checkOpenRun(
    turn: TurnRecord,
    thread: ThreadRecord,
  ): Promise<ReportDigest | undefined | 'busy'> {
    const sessionId = thread.sessionId ?? '';
    const report = await readStatusWithin(turn, sessionId);
    const checking = {
      phase: 'checking',
      turnId: turn.turnId,
      sessionId,
      previousFinal: thread.lastFinal,
    } as const;
    const next = transition(checking, { type: 'previous-run-checked', report });
    if (next.state.phase !== 'starting') return 'busy';
    if (report) await ledger.saveFinal(thread, next.state.previousFinal);
    return next.state.previousFinal;
  }

  /** The run's status, `timeout` when it keeps long-polling, undefined when the request failed. */
  async function readStatusWithin(turn: TurnRecord, sessionId: string): Promise<RunStatusReport | undefined> {
    const giveUp = new AbortController();
    const timedOut = clock.sleep(OPEN_RUN_CHECK_MS, giveUp.signal).then(
      (): RunStatusReport => ({ status: 'timeout' }),
      (): RunStatusReport => ({ status: 'timeout' }),
    );
    try {
      return await Promise.race([
        agentOf(turn)
          .getRunStatus(turn.agentId, sessionId, { signal: giveUp.signal, timeoutMs: OPEN_RUN_CHECK_MS })
          .catch((error: unknown) => {
            if (giveUp.signal.aborted) return { status: 'timeout' } as RunStatusReport;
            logger.warn({ err: error, sessionId }, 'could not read the status of a run left open');
            return undefined;
          }),
        timedOut,
      ]);
    } finally {
      giveUp.abort(DONE_WAITING);
    }
  }

  function newTurn(
    request: TurnRequest,
    key: string,
    thread: ThreadRecord | undefined,
    prepared: ReadyTurn,
  ): { turn: TurnRecord; effect: TurnEffect | undefined } {
    const now = clock.now();
    const turnId = newId();
    // The thread is idle here (its busy lock is taken next, atomically); the machine says
    // whether the turn starts a run, follows up on the thread's session, or checks it first.
    const idle = {
      phase: 'idle',
      sessionId: thread?.sessionId,
      lastFinal: thread?.lastFinal,
      runOpen: thread?.runOpenSince !== undefined,
    } as const;
    const [effect] = transition(idle, { type: 'message-received', turnId }).effects;
    const turn: TurnRecord = {
      turnId,
      threadKey: key,
      teamId: request.teamId,
      channel: request.channel,
      threadTs: request.threadTs,
      agentId: prepared.agentId,
      ...(prepared.connection !== undefined ? { connection: prepared.connection } : {}),
      userId: request.userId,
      sourceTs: request.sourceTs,
      kind: effect?.type === 'start-run' ? 'start' : 'followUp',
      phase: 'starting',
      sessionId: thread?.sessionId,
      previousFinal: thread?.lastFinal,
      ...(prepared.files ? { files: prepared.files } : {}),
      ...(request.alertAt !== undefined ? { alertAt: request.alertAt } : {}),
      timerange: prepared.context.timerange,
      startedAt: now,
      deadlineAt: now + settings.turnDeadlineMs,
    };
    return { turn, effect };
  }

  function newThread(request: TurnRequest, key: string, turn: TurnRecord): ThreadRecord {
    const now = clock.now();
    return {
      threadKey: key,
      teamId: request.teamId,
      channel: request.channel,
      threadTs: request.threadTs,
      agentId: turn.agentId,
      ...(turn.connection !== undefined ? { connection: turn.connection } : {}),
      createdAt: now,
      updatedAt: now,
    };
  }

  async function start(turn: TurnRecord, where: ThreadLocation, input: RunInput): Promise<TurnRequestResult> {
    const log = boundLogger(logger, { threadKey: turn.threadKey, turnId: turn.turnId });
    log.debug({ prompt: input.message, additionalContext: input.additionalContext }, 'turn prompt');
    // Progress shows beside the start request: a person sees the bot at work at once, and a slow
    // Slack never delays the run. The session goes `processing` first (its Stop button), then the
    // step words go on the text status.
    const progressTs = beginSession(turn, where, input.message)
      .then(() => deps.progress.begin(where, turn.turnId))
      .catch(() => undefined);
    const releaseLease = holdLease(turn.turnId);
    try {
      const { sessionId } =
        turn.kind === 'followUp' && turn.sessionId
          ? await agentOf(turn).followUp(turn.agentId, turn.sessionId, input)
          : await agentOf(turn).startRun(turn.agentId, input);
      // The session id is stored at once: a crash from here on resumes the run instead of losing it.
      const started = transition(stateOfRecord(turn), { type: 'run-started', sessionId }).state;
      const running: TurnRecord = { ...turn, phase: storedPhase(started) ?? 'polling', sessionId };
      await ledger.saveTurn(running);
      await ledger.saveSession(turn, sessionId);
      metrics.turnStarted(turn.kind);
      deps.observer?.started(running, input.message);
      log.info({ sessionId, kind: turn.kind }, 'turn started');
      const withProgress = { ...running, progressTs: await progressWithin(progressTs, where) };
      if (withProgress.progressTs) await ledger.saveTurn(withProgress);
      delivery.track(withProgress, { takenOver: false });
      return 'started';
    } catch (error) {
      await delivery.failStart({ ...turn, progressTs: await progressTs }, error);
      return 'start-failed';
    } finally {
      releaseLease();
    }
  }

  /** A new run names its session after the question; in a channel thread it is renamed too. */
  async function beginSession(turn: TurnRecord, where: ThreadLocation, question: string): Promise<void> {
    const fresh = turn.kind === 'start';
    await deps.sessions?.begin(where, {
      question: fresh ? question : undefined,
      rename: fresh && !isDirectMessage(where.channel),
    });
  }

  /**
   * The progress message's ts, if Slack accepts it soon. A slow Slack (a 429 waited out) must not
   * hold back polling: past the wait the turn goes on without it, and the message, once posted,
   * is deleted — it would otherwise say "working" forever.
   */
  async function progressWithin(posted: Promise<string | undefined>, where: ThreadLocation) {
    const late = new AbortController();
    const ts = await Promise.race([
      posted,
      clock.sleep(PROGRESS_WAIT_MS, late.signal).then(
        () => undefined,
        () => undefined,
      ),
    ]);
    late.abort(DONE_WAITING);
    if (ts === undefined) {
      void posted
        .then((lateTs) => (lateTs ? output.removeProgress(where, lateTs) : undefined))
        .catch(() => undefined);
    }
    return ts;
  }

  /**
   * Renews the turn's lease while its start request is out (recovery renews it once the turn is
   * tracked). Otherwise a service slower to start a run than the lease TTL would let a replica —
   * this one included — take the turn for one whose process died, and call it lost.
   */
  function holdLease(turnId: string): () => void {
    const done = new AbortController();
    const everyMs = Math.max(100, Math.floor(settings.leaseTtlMs / 3));
    const lease = ledger.lease(turnId);
    void (async () => {
      while (!done.signal.aborted) {
        await clock.sleep(everyMs, done.signal).catch(() => undefined);
        if (done.signal.aborted) return;
        await lease
          .renew(settings.leaseTtlMs)
          .catch((error: unknown) => logger.warn({ err: error, turnId }, 'lease renewal failed'));
      }
    })();
    return () => done.abort(DONE_WAITING);
  }

  return { begin };
}

export type RunStart = ReturnType<typeof createRunStart>;
