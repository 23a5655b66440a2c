import { boundLogger, type Logger } from '../../runtime/logger.js';
import { runsOn } from '../connection-runs.js';
import type { PreparedTurn } from '../context/turn-context.js';
import type { ConversationMetrics, RunInput, RunStatusReport } from '../ports.js';
import type { ThreadLocation } from '../thread-output-port.js';
import { readOpenRun } from './open-run-check.js';
import type { RunRequest, RunRequestDeps } from './run-request.js';
import type { TurnInFlight, TurnStartWork } from './turn-in-flight.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnObserver } from './turn-observer.js';
import type { ThreadRecord } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';
import type { TurnRunner } from './turn-runner.js';

export type ReadyTurn = Extract<PreparedTurn, { kind: 'ready' }>;

export interface RunStartDeps extends Omit<RunRequestDeps, 'ledger' | 'settings'> {
  ledger: TurnLedger;
  runner: Pick<TurnRunner, 'begin' | 'started' | 'failStart'>;
  metrics: Pick<ConversationMetrics, 'turnStarted'>;
  settings: { turnDeadlineMs: number; leaseTtlMs: number; lateWatchMs?: number | undefined };
  newId: () => string;
  /** Tells the sender the thread is busy (how long its turn has been at it, if known). */
  refuseBusy(request: TurnRequest, workingForMs: number | undefined): void;
  /** Told when the run started (App Home). */
  observer?: Pick<TurnObserver, 'started'> | undefined;
}

/** One message run start took, its thread's busy lock held. */
export interface TakenTurn {
  request: TurnRequest;
  thread: ThreadRecord | undefined;
  prepared: ReadyTurn;
  spent: { giveBack(): Promise<void> };
  releaseLock(): Promise<void>;
}

/** The work of one turn's first effects, as the machine asks for them (turn-effects.ts). */
export function createStartWork(deps: RunStartDeps, requests: RunRequest, taken: TakenTurn) {
  const { ledger, runner, clock, settings } = deps;
  const { request, thread, prepared } = taken;
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
      await taken.releaseLock();
      await taken.spent.giveBack();
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
    return { threadKey, ...where, agentId: prepared.agentId, ...connection, createdAt: now, updatedAt: now };
  }

  return { work, result: () => result };
}

const logOf = (logger: Logger, { turn }: TurnInFlight) =>
  boundLogger(logger, { threadKey: turn.threadKey, turnId: turn.turnId });
