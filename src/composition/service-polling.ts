/** How the bot polls the agent service (DESIGN "One request budget per process"), and which errors end a turn. */
import { AgentApiErrorCode, isAgentApiError } from '../agent-api/index.js';
import type { ConnectionClients } from '../connections/connection-clients.js';
import { createPollScheduler } from '../conversation/polling/poll-scheduler.js';
import type { BotContext } from './bot-context.js';

/** Status errors after which polling a session again cannot help. */
const PERMANENT_POLL_ERRORS = new Set<string>([
  AgentApiErrorCode.TokenRejected,
  AgentApiErrorCode.RegionMismatch,
  AgentApiErrorCode.UnknownEndpoint,
  AgentApiErrorCode.AgentUnavailable,
  AgentApiErrorCode.NotConfigured,
  AgentApiErrorCode.RejectedRequest,
  // The address redirects elsewhere: asking it again answers the same (and is never followed).
  AgentApiErrorCode.Redirected,
]);

/** Whether a status error ends the turn now rather than after the deadline. */
export const isPermanentPollError = (error: unknown) =>
  isAgentApiError(error) && PERMANENT_POLL_ERRORS.has(error.code);

/** The code a notice and a metric name a failure by. */
export const errorCode = (error: unknown) => (isAgentApiError(error) ? error.code : 'unexpected');

/** The poll scheduler that owns every status request. */
export function createServicePoller(
  ctx: Pick<BotContext, 'config' | 'tenancy' | 'slack' | 'clock' | 'logger'>,
  deps: {
    clients: ConnectionClients;
    /** Status requests the poller may have in flight: a share of the process's budget. */
    slots: number;
  },
) {
  const { config, tenancy } = ctx;
  const { clients } = deps;
  return createPollScheduler({
    // The scheduler backs off on its own; a second retry loop inside the client would hold the turn.
    getStatus: async (agentId, sessionId, { connection, teamId, ...callOptions }) =>
      (await clients.api(connection, teamId && tenancy.keyOf(teamId))).getRunStatus(agentId, sessionId, {
        ...callOptions,
        retryLimit: 0,
      }),
    // A poll result's work runs in the turn's own installation (its token, its identity).
    runFor: (teamId, work) => ctx.slack.within(teamId, work),
    slots: deps.slots,
    requestTimeoutMs: config.agent.statusTimeoutMs,
    minIntervalMs: config.agent.pollIntervalMs,
    // Runs past their deadline are looked in on at a slow pace: a tenth of the deadline, 1–30 s.
    lateIntervalMs: Math.min(30_000, Math.max(1_000, config.agent.turnDeadlineMs / 10)),
    clock: ctx.clock,
    logger: ctx.logger,
  });
}
