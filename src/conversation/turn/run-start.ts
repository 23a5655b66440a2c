import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { boundLogger } from '../../runtime/logger.js';
import { runsOn } from '../connection-runs.js';
import type { PreparedTurn } from '../context/turn-context.js';
import type { ConversationMetrics, RunInput, RunStatusReport } from '../ports.js';
import { threadKey as makeThreadKey } from '../thread-key.js';
import type { ThreadLocation } from '../thread-output-port.js';
import { readOpenRun } from './open-run-check.js';
import { createRunRequest, type RunRequestDeps } from './run-request.js';
import type { TurnDraft, TurnInFlight, TurnStartWork } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnObserver } from './turn-observer.js';
import type { ThreadRecord } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';
import type { TurnRunner } from './turn-runner.js';

export type ReadyTurn = Extract<PreparedTurn, { kind: 'ready' }>;

export interface RunStartDeps extends Omit<RunRequestDeps, 'ledger' | 'settings'> {
  ledger: TurnLedger;
  runner: Pick<TurnRunner, 'begin' | 'started' | 'failStart'>;
  clock: Clock;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'turnStarted'>;
  settings: { turnDeadlineMs: number; leaseTtlMs: number; lateWatchMs?: number | undefined };
  newId: () => string;
  /** Tells the sender the thread is busy (how long its turn has been at it, if known). */
  refuseBusy(request: TurnRequest, workingForMs: number | undefined): void;
  /** Told when the run started (App Home). */
  observer?: Pick<TurnObserver, 'started'> | undefined;
}

/**
 * From a taken message to a polled run: the thread's busy lock, then the turn machine (through the
 * runner) decides whether the turn starts a run, follows up or reads the run left open first, and
 * this module does that work — the durable records (stored before the run starts), the request
 * with the progress indicator beside it, the record of the started run.
 */
export function createRunStart(deps: RunStartDeps) {
  const { ledger, runner, clock, settings } = deps;
  const requests = createRunRequest(deps);
  // The busy lock outlasts the deadline and the late watch: a turn frees it when it ends.
  const lockTtl = settings.turnDeadlineMs + (settings.lateWatchMs ?? 0) + 10 * 60 * 1000;

  async function begin(
    request: TurnRequest,
    thread: ThreadRecord | undefined,
    prepared: ReadyTurn,
    spent: { giveBack(): Promise<void> },
  ): Promise<TurnRequestResult> {
    const draft = draftOf(request, thread, prepared);
    const threadLock = ledger.threadLock(draft.threadKey, draft.turnId);
    if (!(await threadLock.take(lockTtl))) {
      await spent.giveBack();
      const holder = await ledger.turnHolding(draft.threadKey);
      deps.refuseBusy(request, holder ? clock.now() - holder.startedAt : undefined);
      return 'busy';
    }
    const input: RunInput = { message: request.prompt, ...prepared.context };
    const where: ThreadLocation = {
      teamId: request.teamId,
      channel: request.channel,
      threadTs: request.threadTs,
    };
    let result: TurnRequestResult = 'busy';
    let checked: RunStatusReport | undefined;
    let shown: Promise<string | undefined> = Promise.resolve(undefined);
    const work: TurnStartWork = {
      check: async (sessionId) => {
        const agent = runsOn(deps.agent, deps.connections, draft.connection, draft.teamId);
        checked = await readOpenRun(agent, draft.agentId, sessionId, deps);
        return checked;
      },
      async refuse() {
        await threadLock.release();
        await spent.giveBack();
        deps.refuseBusy(request, clock.now() - (thread?.runOpenSince ?? clock.now()));
      },
      async send(entry) {
        // The run left open has ended: its final report is the stale rule's reference from now on.
        if (checked && thread) await ledger.saveFinal(thread, entry.turn.previousFinal);
        await ledger.lease(draft.turnId).take(settings.leaseTtlMs);
        if (!thread) await ledger.createThread(threadOf(entry.turn.threadKey, request, prepared));
        result = await send(entry, where, input, (s) => {
          shown = s;
        });
      },
      started: (entry) => started(entry, where, input, shown),
    };
    await runner.begin(draft, thread, work);
    return result;
  }

  async function send(
    entry: TurnInFlight,
    where: ThreadLocation,
    input: RunInput,
    showing: (shown: Promise<string | undefined>) => void,
  ): Promise<TurnRequestResult> {
    const { turn } = entry;
    await ledger.saveTurn(turn);
    boundLogger(deps.logger, { threadKey: turn.threadKey, turnId: turn.turnId }).debug(
      { prompt: input.message, additionalContext: input.additionalContext },
      'turn prompt',
    );
    const run = requests.send(turn, where, input);
    showing(run.shown);
    try {
      const { sessionId } = await run.sent;
      await runner.started(entry, sessionId);
      return 'started';
    } catch (error) {
      await runner.failStart({ ...turn, progressTs: await run.shown }, error);
      return 'start-failed';
    } finally {
      run.done();
    }
  }

  /** The session id is stored at once: a crash from here on resumes the run instead of losing it. */
  async function started(
    entry: TurnInFlight,
    where: ThreadLocation,
    input: RunInput,
    shown: Promise<string | undefined>,
  ) {
    const { turn } = entry;
    const sessionId = turn.sessionId ?? '';
    await ledger.saveTurn(turn);
    await ledger.saveSession(turn, sessionId);
    deps.metrics.turnStarted(turn.kind);
    deps.observer?.started(turn, input.message);
    deps.logger.info(
      { threadKey: turn.threadKey, turnId: turn.turnId, sessionId, kind: turn.kind },
      'turn started',
    );
    const progressTs = await requests.shownWithin(shown, where);
    if (!progressTs) return;
    entry.turn = { ...entry.turn, progressTs };
    await ledger.saveTurn(entry.turn);
  }

  function draftOf(request: TurnRequest, thread: ThreadRecord | undefined, prepared: ReadyTurn): TurnDraft {
    const now = clock.now();
    const { teamId, channel, threadTs, userId, sourceTs, alertAt } = request;
    return {
      turnId: deps.newId(),
      threadKey: makeThreadKey(teamId, channel, threadTs),
      teamId,
      channel,
      threadTs,
      agentId: prepared.agentId,
      ...(prepared.connection !== undefined ? { connection: prepared.connection } : {}),
      userId,
      sourceTs,
      sessionId: thread?.sessionId,
      ...(prepared.files ? { files: prepared.files } : {}),
      ...(alertAt !== undefined ? { alertAt } : {}),
      timerange: prepared.context.timerange,
      startedAt: now,
      deadlineAt: now + settings.turnDeadlineMs,
    };
  }

  function threadOf(threadKey: string, request: TurnRequest, prepared: ReadyTurn): ThreadRecord {
    const now = clock.now();
    const { teamId, channel, threadTs } = request;
    const connection = prepared.connection !== undefined ? { connection: prepared.connection } : {};
    return {
      threadKey,
      teamId,
      channel,
      threadTs,
      agentId: prepared.agentId,
      ...connection,
      createdAt: now,
      updatedAt: now,
    };
  }

  return { begin };
}

export type RunStart = ReturnType<typeof createRunStart>;
