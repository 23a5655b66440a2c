import { randomUUID } from 'node:crypto';
import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import { boundLogger, type Logger } from '../../runtime/logger.js';
import { runsOn } from '../connection-runs.js';
import type { PreparedTurn } from '../context/turn-context.js';
import type { AgentRunsPort, ConversationMetrics, RunInput, RunStatusReport } from '../ports.js';
import { threadKey as makeThreadKey } from '../thread-key.js';
import type { ThreadLocation } from '../thread-output-port.js';
import { createRunRequest, type RunRequestDeps } from './run-request.js';
import type { TurnInFlight, TurnStartWork } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnObserver } from './turn-observer.js';
import type { ThreadRecord, TurnDraft } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';
import type { TurnRunner } from './turn-runner.js';

export type ReadyTurn = Extract<PreparedTurn, { kind: 'ready' }>;

export interface RunStartDeps extends Omit<RunRequestDeps, 'ledger' | 'settings'> {
  ledger: TurnLedger;
  runner: Pick<TurnRunner, 'begin' | 'started' | 'failStart'>;
  metrics: Pick<ConversationMetrics, 'turnStarted'>;
  settings: { turnDeadlineMs: number; leaseTtlMs: number; lateWatchMs?: number | undefined };
  /** @default {@link newFlatId} */
  newId?: (() => string) | undefined;
  /** Tells the sender the thread is busy (how long its turn has been at it, if known). */
  refuseBusy(request: TurnRequest, workingForMs: number | undefined): void;
  /** Told when the run started (App Home). */
  observer?: Pick<TurnObserver, 'started'> | undefined;
}

/**
 * A random UUID as one flat string: V8 keeps `randomUUID`'s 20 joined pieces as a tree (about 500
 * bytes instead of 60) and every turn keeps several ids; `toLowerCase` (a no-op here) flattens it.
 */
export const newFlatId = (): string => randomUUID().toLowerCase();

/** A finished run answers at once; a working one long-polls, so no answer by then means "still working". */
const OPEN_RUN_CHECK_MS = 5_000;
const STILL_WORKING: RunStatusReport = { status: 'timeout' };

/**
 * From a taken message to a polled run: the thread's busy lock, then the turn machine (through the
 * runner) decides how the turn starts; startWork below does that work.
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
    const { work, result } = startWork(deps, requests, request, thread, prepared, async () => {
      await threadLock.release();
      await spent.giveBack();
    });
    await runner.begin(draft, thread, work);
    return result();
  }

  function draftOf(request: TurnRequest, thread: ThreadRecord | undefined, prepared: ReadyTurn): TurnDraft {
    const now = clock.now();
    const { teamId, channel, threadTs, userId, sourceTs, alertAt } = request;
    return {
      turnId: (deps.newId ?? newFlatId)(),
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

  return { begin };
}

/** The run's request to the service and its progress indicator (run-request.ts). */
type RunRequest = ReturnType<typeof createRunRequest>;

/** The work of one taken turn's first effects, as the machine asks for them (turn-effects.ts). */
function startWork(
  deps: RunStartDeps,
  requests: RunRequest,
  request: TurnRequest,
  thread: ThreadRecord | undefined,
  prepared: ReadyTurn,
  giveBack: () => Promise<void>,
) {
  const { ledger, runner, clock, settings } = deps;
  const input: RunInput = { message: request.prompt, ...prepared.context };
  const { teamId, channel, threadTs } = request;
  const where: ThreadLocation = { teamId, channel, threadTs };
  let result: TurnRequestResult = 'busy';
  let checked: RunStatusReport | undefined;
  let shown: Promise<string | undefined> = Promise.resolve(undefined);

  const work: TurnStartWork = {
    async check(sessionId) {
      const agent = runsOn(deps.agent, deps.connections, prepared.connection, teamId);
      checked = await readOpenRun(agent, prepared.agentId, sessionId, deps);
      return checked;
    },
    async refuse() {
      await giveBack();
      deps.refuseBusy(request, clock.now() - (thread?.runOpenSince ?? clock.now()));
    },
    async send(entry) {
      const { turn } = entry;
      // The run left open has ended: its final report is the stale rule's reference from now on.
      if (checked && thread) await ledger.saveFinal(thread, turn.previousFinal);
      await ledger.lease(turn.turnId).take(settings.leaseTtlMs);
      if (!thread) await ledger.createThread(threadOf(turn.threadKey, clock.now()));
      await ledger.saveTurn(turn);
      logOf(deps.logger, entry).debug(
        { prompt: input.message, additionalContext: input.additionalContext },
        'turn prompt',
      );
      const run = requests.send(turn, where, input, thread !== undefined);
      shown = run.shown;
      try {
        await runner.started(entry, (await run.sent).sessionId);
        result = 'started';
      } catch (error) {
        await runner.failStart({ ...turn, progressTs: await run.shown }, error);
        result = 'start-failed';
      } finally {
        run.done();
      }
    },
    /** The session id is stored at once: a crash from here on resumes the run instead of losing it. */
    async started(entry) {
      const { turn } = entry;
      const sessionId = turn.sessionId ?? '';
      await ledger.saveTurn(turn);
      await ledger.saveSession(turn, sessionId);
      deps.metrics.turnStarted(turn.kind);
      deps.observer?.started(turn, input.message);
      logOf(deps.logger, entry).info({ sessionId, kind: turn.kind }, 'turn started');
      const progressTs = await requests.shownWithin(shown, where);
      if (!progressTs) return;
      entry.turn = { ...entry.turn, progressTs };
      await ledger.saveTurn(entry.turn);
    },
  };

  function threadOf(threadKey: string, now: number): ThreadRecord {
    const connection = prepared.connection !== undefined ? { connection: prepared.connection } : {};
    return {
      threadKey,
      ...where,
      agentId: prepared.agentId,
      ...connection,
      createdAt: now,
      updatedAt: now,
    };
  }

  return { work, result: () => result };
}

export type RunStart = ReturnType<typeof createRunStart>;

const logOf = (logger: Logger, { turn }: TurnInFlight) =>
  boundLogger(logger, { threadKey: turn.threadKey, turnId: turn.turnId });

/**
 * The status of a thread's run left open, read before anything is sent (the seed's rule 2): `timeout`
 * while it long-polls, undefined when the request failed (the follow-up then says what is wrong).
 */
async function readOpenRun(
  agent: Pick<AgentRunsPort, 'getRunStatus'>,
  agentId: string,
  sessionId: string,
  { clock, logger }: { clock: Clock; logger: Logger },
): Promise<RunStatusReport | undefined> {
  const giveUp = new AbortController();
  const timedOut = clock.sleep(OPEN_RUN_CHECK_MS, giveUp.signal).then(
    () => STILL_WORKING,
    () => STILL_WORKING,
  );
  const read = agent
    .getRunStatus(agentId, sessionId, { signal: giveUp.signal, timeoutMs: OPEN_RUN_CHECK_MS })
    .catch((error: unknown) => {
      if (giveUp.signal.aborted) return STILL_WORKING;
      logger.warn({ err: error, sessionId }, 'could not read the status of a run left open');
      return undefined;
    });
  try {
    return await Promise.race([read, timedOut]);
  } finally {
    giveUp.abort(DONE_WAITING);
  }
}
