import { randomUUID } from 'node:crypto';
import type { AnswerPlacement } from './answer-place.js';
import type { OutsiderReason } from './audience.js';
import { boundLogger } from './bound-logger.js';
import { DONE_WAITING } from './clock.js';
import type { IoGate } from './io-gate.js';
import { deliverWhileTransient } from './outcome-retry.js';
import type {
  AgentRunsPort,
  Clock,
  ConversationMetrics,
  ConversationStore,
  Logger,
  Refusal,
  RefusalDetail,
  ReportDigest,
  RunInput,
  RunStatusReport,
  ThreadLocation,
  ThreadOutput,
  ThreadRecord,
  TurnRecord,
} from './ports.js';
import { type Spending, unlimitedSpending } from './spending.js';
import { threadKey as makeThreadKey } from './thread-key.js';
import type { PreparedTurn, TurnContext } from './turn-context.js';
import type { TurnDelivery } from './turn-delivery.js';
import { createTurnLedger } from './turn-ledger.js';
import { stateOfRecord, storedPhase, type TurnEffect, transition } from './turn-machine.js';
import type { TurnProgress } from './turn-progress.js';
import type { InsideCheck } from './who-is-inside.js';

type Ready = Extract<PreparedTurn, { kind: 'ready' }>;

/** How long a started turn waits for Slack to accept its progress message before polling without it. */
const PROGRESS_WAIT_MS = 2_000;
/**
 * How long the status check of a run left open may take. The status request long-polls while the
 * run works; a finished run answers at once, so no answer by then means "still working".
 */
const OPEN_RUN_CHECK_MS = 5_000;
/** A refusal is retried while Slack fails transiently, but no longer than this: later it only confuses. */
const REFUSAL_GIVE_UP_MS = 10 * 60 * 1000;

/** A person's message that the Slack layer classified as a possible turn. */
export interface TurnRequest {
  /** The app's own workspace (the thread key's team), never the envelope's. */
  teamId: string;
  channel: string;
  /** The thread the answer goes to (the message's own ts for a new thread). */
  threadTs: string;
  /** The message itself. */
  sourceTs: string;
  userId: string;
  /** The sender's workspace as the event names it (undefined when it names none). */
  workspaceId?: string | undefined;
  prompt: string;
  /** The message carried files: only its text goes to the agent, and the answer says so. */
  hasFiles?: boolean | undefined;
  /**
   * True when the person addressed the bot (a mention or a DM). False for a thread reply without
   * a mention: only a thread the bot has answered in takes it.
   */
  mentioned: boolean;
}

export type TurnRequestResult =
  | 'started'
  | 'duplicate'
  | 'no-session'
  | 'busy'
  | 'refused'
  | 'outsider'
  | 'over-limit'
  | 'start-failed'
  | 'failed';

export interface TurnStarterDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  output: ThreadOutput;
  delivery: TurnDelivery;
  progress: Pick<TurnProgress, 'begin'>;
  clock: Clock;
  logger: Logger;
  metrics: ConversationMetrics;
  /** `lateWatchMs`: how long past its deadline a run is still watched (the thread stays busy). */
  settings: {
    defaultAgentId: string;
    instanceId: string;
    turnDeadlineMs: number;
    leaseTtlMs: number;
    lateWatchMs?: number | undefined;
  };
  /** Only people inside the organisation start turns (DESIGN "Who is inside"). */
  inside: InsideCheck;
  newId?: () => string;
  /**
   * Turn starts take turns with Slack's incoming requests, one per turn of the event loop (see
   * io-gate.ts): a burst of mentions then neither delays acks nor starves the poller.
   */
  gate?: IoGate;
  /** The agent, thread context and time range of a turn (see turn-context.ts). */
  context: Pick<TurnContext, 'prepare'>;
  /** Where the answer goes when outsiders can read the conversation (see answer-place.ts). */
  placement: AnswerPlacement;
  /** Runs per person per rolling hour (see spending.ts). @default no limit */
  spending?: Spending;
}

/**
 * A random UUID held as one flat string. `randomUUID` joins 20 pieces, which V8 keeps as a tree of
 * string fragments (about 500 bytes instead of 60), and every turn keeps several ids in its records
 * and locks; `toLowerCase` (a no-op on the text) returns it flattened.
 */
const newFlatId = (): string => randomUUID().toLowerCase();

/**
 * Turns a classified Slack message into an agent turn: dedupe, the thread's busy lock, the
 * durable turn record (stored before the run starts), the start or follow-up request, and
 * hand-off to the poller. Exactly one turn results per Slack message.
 */
export function createTurnStarter(deps: TurnStarterDeps) {
  const { store, agent, output, delivery, clock, logger, metrics, settings } = deps;
  const newId = deps.newId ?? newFlatId;
  const ledger = createTurnLedger({ store, clock, instanceId: settings.instanceId });
  /** Ends the retries of refusals still waiting for Slack (shutdown). */
  const stopping = new AbortController();
  const refusalsUnderWay = new Set<Promise<unknown>>();

  /**
   * Tells the sender why their message was not taken, through the same retry as outcomes (a
   * refusal must not be lost to a passing Slack failure), beside the caller.
   */
  function tell(where: ThreadLocation, request: TurnRequest, refusal: Refusal, detail?: RefusalDetail): void {
    const work = deliverWhileTransient(
      () => output.refuse(where, request.userId, request.sourceTs, refusal, detail),
      { clock, signal: stopping.signal, giveUpAfterMs: REFUSAL_GIVE_UP_MS },
    ).then((result) => {
      if (!result.ok)
        logger.warn({ channel: request.channel, refusal, code: result.code }, 'refusal not delivered');
    });
    refusalsUnderWay.add(work);
    void work.finally(() => refusalsUnderWay.delete(work));
  }

  /**
   * Handles one classified message. Failures before the run starts (the store not answering) are
   * logged and told to the sender, so a message is never dropped in silence.
   */
  async function handle(request: TurnRequest): Promise<TurnRequestResult> {
    try {
      await deps.gate?.pass();
      return await take(request);
    } catch (error) {
      logger.error(
        { err: error, channel: request.channel, ts: request.sourceTs },
        'could not take a message',
      );
      const where = { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
      tell(where, request, 'unavailable');
      return 'failed';
    }
  }

  async function take(asked: TurnRequest): Promise<TurnRequestResult> {
    const askedWhere = locationOf(asked);
    const askedThread = await store.getThread(makeThreadKey(asked.teamId, asked.channel, asked.threadTs));
    // A thread the bot has answered in (even with an error or "ask again" notice, before any
    // session) takes replies as turns; the turn starts a new run when there is no session yet.
    if (!asked.mentioned && !askedThread) return 'no-session';
    if (!(await firstDelivery(asked))) return 'duplicate';
    if (!(await isInside(asked, askedWhere))) return 'outsider';
    const prepared: PreparedTurn =
      asked.prompt.trim() === ''
        ? { kind: 'refused', refusal: 'empty-prompt' }
        : await deps.context.prepare(asked, askedThread);
    if (prepared.kind === 'refused') {
      tell(askedWhere, asked, prepared.refusal);
      return 'refused';
    }
    const placement = await deps.placement.decide(asked.channel);
    if (placement.kind === 'refused') {
      tell(askedWhere, asked, 'outsider-audience', { audience: placement.reason });
      return 'refused';
    }
    // After the audience refusal (it costs nothing) and before a DM is opened for someone over it.
    const spent = await (deps.spending ?? unlimitedSpending).take(asked.userId);
    if (!spent.ok) {
      tell(askedWhere, asked, spent.refusal, spent.detail);
      return 'over-limit';
    }
    const placed =
      placement.kind === 'private'
        ? await movePrivately(asked, placement.reason)
        : { request: asked, thread: askedThread };
    if (!placed) {
      await spent.giveBack();
      return 'refused';
    }
    return begin(placed.request, placed.thread, prepared, spent);
  }

  /**
   * Moves the question to the asker's DM (OUTSIDER_AUDIENCE=dm): from here on the turn lives in the
   * private thread, whose root (the quote of the question) is the turn's message. Undefined (the
   * asker told why) when Slack would not open the DM.
   */
  async function movePrivately(asked: TurnRequest, reason: OutsiderReason) {
    const askedWhere = locationOf(asked);
    const moved = await deps.placement.moveToPrivate(
      { ...askedWhere, sourceTs: asked.sourceTs },
      asked.userId,
      asked.prompt,
      reason,
    );
    if (!moved.moved) {
      tell(askedWhere, asked, 'private-thread-failed', { audience: reason });
      return undefined;
    }
    const { channel, threadTs } = moved.where;
    return { request: { ...asked, channel, threadTs, sourceTs: threadTs }, thread: undefined };
  }

  /** The thread's busy lock, the open-run check, the durable records, then the run. */
  async function begin(
    request: TurnRequest,
    thread: ThreadRecord | undefined,
    prepared: Ready,
    spent: { giveBack(): Promise<void> },
  ): Promise<TurnRequestResult> {
    const where = locationOf(request);
    const key = makeThreadKey(request.teamId, request.channel, request.threadTs);
    const { turn, effect } = newTurn(request, key, thread, prepared);
    const lockTtl = settings.turnDeadlineMs + (settings.lateWatchMs ?? 0) + 10 * 60 * 1000;
    const threadLock = ledger.threadLock(key, turn.turnId);
    if (!(await threadLock.take(lockTtl))) {
      await spent.giveBack();
      tell(where, request, 'busy', { workingForMs: await workingFor(key) });
      return 'busy';
    }
    if (effect?.type === 'check-previous-run' && thread) {
      const checked = await checkOpenRun(turn, thread);
      if (checked === 'busy') {
        await threadLock.release();
        await spent.giveBack();
        tell(where, request, 'busy', { workingForMs: clock.now() - (thread.runOpenSince ?? clock.now()) });
        return 'busy';
      }
      turn.previousFinal = checked;
    }
    await ledger.lease(turn.turnId).take(settings.leaseTtlMs);
    if (!thread) await ledger.createThread(newThread(request, key, turn.agentId));
    await ledger.saveTurn(turn);
    return start(turn, where, { message: request.prompt, ...prepared.context });
  }

  /**
   * Asked once per message (after dedupe). An outsider who addressed the bot is told why it stays
   * quiet; an outsider's unaddressed reply in a shared thread is only logged.
   */
  async function isInside(request: TurnRequest, where: ThreadLocation): Promise<boolean> {
    const verdict = await deps.inside.check({ userId: request.userId, workspaceId: request.workspaceId });
    if (verdict.inside) return true;
    logger.info(
      { channel: request.channel, ts: request.sourceTs, userId: request.userId, reason: verdict.reason },
      'message from outside the organisation refused',
    );
    if (request.mentioned) {
      const refusal = verdict.refusal;
      tell(where, request, refusal);
    }
    return false;
  }

  function locationOf(request: TurnRequest): ThreadLocation {
    return { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
  }

  /** Slack delivers a mention twice and retries events: only the first sighting counts. */
  function firstDelivery(request: TurnRequest): Promise<boolean> {
    return ledger.markSeen(request.channel, request.sourceTs, newId());
  }

  /** Tells the sender (once per message) why their message does not become a turn. */
  async function refuse(request: TurnRequest, refusal: Refusal): Promise<TurnRequestResult> {
    if (!(await firstDelivery(request))) return 'duplicate';
    const where = { teamId: request.teamId, channel: request.channel, threadTs: request.threadTs };
    tell(where, request, refusal);
    return 'refused';
  }

  /** How long the turn holding the thread has been at it (for the busy notice), if known. */
  async function workingFor(key: string): Promise<number | undefined> {
    const owner = await ledger.threadHolder(key);
    const holder = owner ? await store.getTurn(owner) : undefined;
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
    const report = await readStatusWithin(turn.agentId, sessionId);
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
  async function readStatusWithin(agentId: string, sessionId: string): Promise<RunStatusReport | undefined> {
    const giveUp = new AbortController();
    const timedOut = clock.sleep(OPEN_RUN_CHECK_MS, giveUp.signal).then(
      (): RunStatusReport => ({ status: 'timeout' }),
      (): RunStatusReport => ({ status: 'timeout' }),
    );
    try {
      return await Promise.race([
        agent
          .getRunStatus(agentId, sessionId, { signal: giveUp.signal, timeoutMs: OPEN_RUN_CHECK_MS })
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
    prepared: Ready,
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
      userId: request.userId,
      sourceTs: request.sourceTs,
      kind: effect?.type === 'start-run' ? 'start' : 'followUp',
      phase: 'starting',
      sessionId: thread?.sessionId,
      previousFinal: thread?.lastFinal,
      ...(request.hasFiles ? { filesNotSent: true } : {}),
      timerange: prepared.context.timerange,
      startedAt: now,
      deadlineAt: now + settings.turnDeadlineMs,
    };
    return { turn, effect };
  }

  function newThread(request: TurnRequest, key: string, agentId: string): ThreadRecord {
    const now = clock.now();
    return {
      threadKey: key,
      teamId: request.teamId,
      channel: request.channel,
      threadTs: request.threadTs,
      agentId,
      createdAt: now,
      updatedAt: now,
    };
  }

  async function start(turn: TurnRecord, where: ThreadLocation, input: RunInput): Promise<TurnRequestResult> {
    const log = boundLogger(logger, { threadKey: turn.threadKey, turnId: turn.turnId });
    log.debug({ prompt: input.message, additionalContext: input.additionalContext }, 'turn prompt');
    // Progress shows beside the start request: a person sees the bot at work at once, and a slow
    // Slack never delays the run.
    const progressTs = deps.progress.begin(where, turn.turnId).catch(() => undefined);
    const releaseLease = holdLease(turn.turnId);
    try {
      const { sessionId } =
        turn.kind === 'followUp' && turn.sessionId
          ? await agent.followUp(turn.agentId, turn.sessionId, input)
          : await agent.startRun(turn.agentId, input);
      // The session id is stored at once: a crash from here on resumes the run instead of losing it.
      const started = transition(stateOfRecord(turn), { type: 'run-started', sessionId }).state;
      const running: TurnRecord = { ...turn, phase: storedPhase(started) ?? 'polling', sessionId };
      await ledger.saveTurn(running);
      await ledger.saveSession(turn, sessionId);
      metrics.turnStarted(turn.kind);
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

  /** Ends the retries of refusals still waiting for Slack; resolves once they settled. */
  async function stop(): Promise<void> {
    stopping.abort();
    await Promise.all([...refusalsUnderWay]);
  }

  return { handle, refuse, stop };
}

export type TurnStarter = ReturnType<typeof createTurnStarter>;
