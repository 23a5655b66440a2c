/**
 * Where a turn's output goes in Slack (DESIGN "Native progress", "Agent sessions and Stop"): the
 * thread output for answers and notices, the progress it shows while the agent works, and the
 * agent session's status — each routed to the thread's own installation.
 */

import type { Config } from '../config/load-config.js';
import { createAgentSessions } from '../conversation/agent-session.js';
import { createTurnProgress } from '../conversation/turn/turn-progress.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { createSlackAgentSessions } from '../slack/agent-sessions.js';
import type { SlackWiring } from '../slack/installations/slack-wiring.js';
import { createSlackThreadOutput } from '../slack/thread-output.js';
import { createSlackThreadStatus } from '../slack/thread-status.js';

export function wireTurnOutput(deps: {
  config: Config;
  slackSide: SlackWiring;
  /** The Web client answers and notices go out on. */
  client: ReturnType<SlackWiring['webClient']>;
  clock: Clock;
  logger: Logger;
  /** The bot's metrics (metrics.ts), as the Slack adapters record them. */
  metrics: Parameters<typeof createSlackThreadOutput>[0]['metrics'] &
    Parameters<typeof createTurnProgress>[0]['metrics'];
}) {
  const { config, slackSide, clock, logger, metrics } = deps;
  // Progress has a Web client of its own (same connection pool): a 429 on a status refresh pauses
  // only that client's queue, never an answer's.
  const progressClient = slackSide.webClient();
  const output = slackSide.routeOutput(
    createSlackThreadOutput({
      client: deps.client,
      progressClient,
      identity: slackSide.identity,
      logger,
      metrics,
      fileThresholdChars: config.answers.fileThresholdChars,
    }),
  );
  const progress = createTurnProgress({
    style: config.progress.style,
    refreshMs: config.progress.statusRefreshMs,
    perMinute: config.answers.progressUpdatesPerMinute,
    output,
    status: slackSide.routeStatus(createSlackThreadStatus({ client: progressClient, logger, metrics })),
    clock,
    logger,
    metrics,
  });
  // Agent sessions (the Stop button) ride the progress client: they are progress, never an answer.
  const sessions = createAgentSessions({
    port: slackSide.routeSessions(createSlackAgentSessions({ client: progressClient, logger, metrics })),
    logger,
  });
  return { output, progress, sessions };
}
