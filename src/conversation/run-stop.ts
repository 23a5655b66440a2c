/** Slack's Stop button (DESIGN "Agent sessions and Stop"): a mark on the turn its holder acts on. */
import type { Logger } from '../runtime/logger.js';
import type { InsideCheck } from './access/who-is-inside.js';
import type { AgentSessions } from './agent-session.js';
import type { ConversationMetrics } from './ports.js';
import { threadKey } from './thread-key.js';
import type { ThreadLocation } from './thread-output-port.js';
import type { TurnLedger } from './turn/turn-ledger.js';
import type { TurnRunner } from './turn/turn-runner.js';

/** One press of Stop, as the Slack layer read it from the event. */
export interface StopRequest extends ThreadLocation {
  userId: string;
  /** The presser's workspace, when the event names one (it usually does not: then users.info tells). */
  workspaceId?: string | undefined;
}

export type StopResult = 'stopped' | 'idle' | 'outsider';

export function createRunStop(deps: {
  ledger: Pick<TurnLedger, 'turnHolding' | 'markStopped'>;
  runner: Pick<TurnRunner, 'stopTurn'>;
  inside: Pick<InsideCheck, 'check'>;
  sessions: Pick<AgentSessions, 'end'>;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'stopPressed'>;
}) {
  const { ledger, runner, inside, sessions, logger, metrics } = deps;

  async function onStop(request: StopRequest): Promise<StopResult> {
    const key = threadKey(request.teamId, request.channel, request.threadTs);
    const verdict = await inside.check({ userId: request.userId, workspaceId: request.workspaceId });
    if (!verdict.inside) {
      logger.info(
        { threadKey: key, userId: request.userId, reason: verdict.reason },
        'stop from outside the organisation ignored',
      );
      metrics.stopPressed('outsider');
      return 'outsider';
    }
    const turn = await ledger.turnHolding(key);
    if (!turn) {
      // Nothing runs (the answer landed meanwhile): the session must not stay `processing`.
      logger.info({ threadKey: key, userId: request.userId }, 'stop with no run in the thread');
      await sessions.end(request);
      metrics.stopPressed('idle');
      return 'idle';
    }
    await ledger.markStopped(turn.turnId, request.userId);
    logger.info({ threadKey: key, turnId: turn.turnId, userId: request.userId }, 'stop requested');
    metrics.stopPressed('stopped');
    await runner.stopTurn(turn.turnId);
    return 'stopped';
  }

  return { onStop };
}

export type RunStop = ReturnType<typeof createRunStop>;
