import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { isDirectMessage } from '../access/audience.js';
import type { AgentSessions } from '../agent-session.js';
import { type ConnectionRuns, runsOn } from '../connection-runs.js';
import type { AgentRunsPort, RunInput } from '../ports.js';
import type { ThreadLocation, ThreadOutput } from '../thread-output-port.js';
import type { TurnLedger } from './turn-ledger.js';
import type { TurnProgress } from './turn-progress.js';
import type { TurnRecord } from './turn-records.js';

/** How long a started turn waits for Slack to accept its progress message before polling without it. */
const PROGRESS_WAIT_MS = 2_000;

export interface RunRequestDeps {
  ledger: Pick<TurnLedger, 'lease'>;
  agent: AgentRunsPort;
  /** The other service connections' runs (threads started on one stay on it). */
  connections?: ConnectionRuns | undefined;
  output: Pick<ThreadOutput, 'removeProgress'>;
  progress: Pick<TurnProgress, 'begin'>;
  /** The thread's agent session, set `processing` before the text status. @default none */
  sessions?: Pick<AgentSessions, 'begin'> | undefined;
  clock: Clock;
  logger: Logger;
  settings: { leaseTtlMs: number };
}

/** The start or follow-up request of a stored turn, with the progress indicator beside it. */
export function createRunRequest(deps: RunRequestDeps) {
  const { clock, logger, settings } = deps;
  const agentOf = (turn: TurnRecord) => runsOn(deps.agent, deps.connections, turn.connection, turn.teamId);

  /**
   * Sends the request; progress shows beside it (`shown`: its message's ts), so a slow Slack never
   * delays the run. The session goes `processing` first (its Stop button). A new run names its
   * session after the question; Slack takes a title only when the session is created, so a channel
   * thread seen before (`threadSeen`) is renamed, while a new thread's session is named by this call.
   */
  function send(turn: TurnRecord, where: ThreadLocation, input: RunInput, threadSeen: boolean) {
    const agent = agentOf(turn);
    const fresh = turn.kind === 'start';
    const shown = (async () => {
      await deps.sessions?.begin(where, {
        question: fresh ? input.message : undefined,
        rename: fresh && threadSeen && !isDirectMessage(where.channel),
      });
      return deps.progress.begin(where, turn.turnId);
    })().catch(() => undefined);
    const done = holdLease(turn.turnId);
    const sent =
      turn.kind === 'followUp' && turn.sessionId
        ? agent.followUp(turn.agentId, turn.sessionId, input)
        : agent.startRun(turn.agentId, input);
    return { sent, shown, done };
  }

  /**
   * The progress message's ts, if Slack accepts it soon: a slow Slack must not hold back polling.
   * A message posted later is deleted (it would say "working" forever).
   */
  async function shownWithin(shown: Promise<string | undefined>, where: ThreadLocation) {
    const late = new AbortController();
    const waited = clock.sleep(PROGRESS_WAIT_MS, late.signal).then(
      () => undefined,
      () => undefined,
    );
    const ts = await Promise.race([shown, waited]);
    late.abort(DONE_WAITING);
    if (ts === undefined) {
      void shown
        .then((lateTs) => (lateTs ? deps.output.removeProgress(where, lateTs) : undefined))
        .catch(() => undefined);
    }
    return ts;
  }

  /**
   * Renews the turn's lease while its request is out (recovery renews it once polled): a service
   * slower than the lease TTL would otherwise let a replica take the turn over and call it lost.
   */
  function holdLease(turnId: string): () => void {
    const done = new AbortController();
    const everyMs = Math.max(100, Math.floor(settings.leaseTtlMs / 3));
    const lease = deps.ledger.lease(turnId);
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

  return { send, shownWithin };
}
