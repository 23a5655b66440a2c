/**
 * Where a turn's output goes in Slack (DESIGN "Native progress", "Agent sessions and Stop"): the
 * thread output for answers and notices, the progress it shows while the agent works, and the
 * agent session's status — each routed to the thread's own installation.
 */
import { createAgentSessions } from '../conversation/agent-session.js';
import { createTurnProgress } from '../conversation/turn/turn-progress.js';
import { createSlackAgentSessions } from '../slack/agent-sessions.js';
import { createSlackThreadOutput } from '../slack/thread-output.js';
import { createSlackThreadStatus } from '../slack/thread-status.js';
import type { BotContext } from './bot-context.js';

export function wireTurnOutput(ctx: BotContext, client: ReturnType<BotContext['slack']['webClient']>) {
  const { config, slack, clock, logger, metrics } = ctx;
  // Progress has a Web client of its own (same connection pool): a 429 on a status refresh pauses
  // only that client's queue, never an answer's.
  const progressClient = slack.webClient();
  const output = slack.routeOutput(
    createSlackThreadOutput({
      client,
      progressClient,
      identity: ctx.identity,
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
    status: slack.routeStatus(createSlackThreadStatus({ client: progressClient, logger, metrics })),
    clock,
    logger,
    metrics,
  });
  // Agent sessions (the Stop button) ride the progress client: they are progress, never an answer.
  const sessions = createAgentSessions({
    port: slack.routeSessions(createSlackAgentSessions({ client: progressClient, logger, metrics })),
    logger,
  });
  return { output, progress, sessions };
}
