import {
  AgentApiErrorCode,
  checkAgentService,
  createAgentApi,
  createRequestBudget,
  isAgentApiError,
} from './agent-api/index.js';
import type { Config } from './config.js';
import { createAnswerPlacement } from './conversation/answer-place.js';
import { createConversationAudience } from './conversation/audience.js';
import { createChannelAgents } from './conversation/channel-agents.js';
import { systemClock } from './conversation/clock.js';
import { createIoGate } from './conversation/io-gate.js';
import { createPollScheduler } from './conversation/poll-scheduler.js';
import type { Clock, Logger } from './conversation/ports.js';
import { createReactionFeedback } from './conversation/reaction-feedback.js';
import { createSpending } from './conversation/spending.js';
import { createTurnContext } from './conversation/turn-context.js';
import { createTurnDelivery } from './conversation/turn-delivery.js';
import { createTurnLedger } from './conversation/turn-ledger.js';
import { createTurnProgress } from './conversation/turn-progress.js';
import { createTurnRecovery } from './conversation/turn-recovery.js';
import { createTurnStarter } from './conversation/turn-service.js';
import { createInsideCheck } from './conversation/who-is-inside.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createAgentView } from './slack/agent-view.js';
import { createSlackApp } from './slack/app.js';
import { createSlackAudienceSource } from './slack/conversation-audience.js';
import { createSlackWiring } from './slack/installations/slack-wiring.js';
import { createSlackPeopleDirectory } from './slack/people-directory.js';
import { createSlackPrivateReplies } from './slack/private-replies.js';
import { checkSlackToken } from './slack/startup-check.js';
import { createSlackThreadOutput } from './slack/thread-output.js';
import { createSlackThreadReader } from './slack/thread-reader.js';
import { createSlackThreadStatus } from './slack/thread-status.js';
import { createUserDirectory, slackUsersInfo } from './slack/user-directory.js';
import { newReferenceId } from './slack/views/describe-error.js';
import { createStore } from './store/index.js';

/** The agent service check's bound at start-up, like the Slack token check's. */
const STARTUP_CHECK_MS = 10_000;

/** Status errors after which polling a session again cannot help. */
const PERMANENT_POLL_ERRORS = new Set<string>([
  AgentApiErrorCode.TokenRejected,
  AgentApiErrorCode.RegionMismatch,
  AgentApiErrorCode.UnknownEndpoint,
  AgentApiErrorCode.AgentUnavailable,
  AgentApiErrorCode.NotConfigured,
  AgentApiErrorCode.RejectedRequest,
]);
const isPermanentPollError = (error: unknown) =>
  isAgentApiError(error) && PERMANENT_POLL_ERRORS.has(error.code);

export interface RunningBridge {
  /** The HTTP port serving /slack/events (HTTP mode), /healthz and /metrics. */
  port: number;
  metrics: Metrics;
  /** Stops taking traffic, gives up leases (another replica resumes the turns), closes the store. */
  stop(): Promise<void>;
}

/**
 * The composition root: config → adapters → conversation services → the Slack app. `npm start`,
 * the sandbox and the end-to-end tests all run the bot through this one function.
 */
export async function startBridge(
  config: Config,
  options: { logger: Logger; clock?: Clock },
): Promise<RunningBridge> {
  const { logger } = options;
  const clock = options.clock ?? systemClock;
  if (config.emptyVariables.length > 0) {
    logger.warn(
      { variables: config.emptyVariables },
      `empty variables are treated as unset, so their defaults apply: ${config.emptyVariables.join(', ')}`,
    );
  }
  // One workspace: its token is checked now. OAuth: each installation's token came with its install.
  const checkedIdentity = config.slack.oauth ? undefined : await checkSlackToken(config, logger);
  const budget = createRequestBudget({ limit: config.agent.maxInFlight, pollShare: config.agent.pollShare });
  const agentApi = createAgentApi({
    baseUrl: config.agent.baseUrl,
    token: config.agent.token,
    accountToken: config.agent.accountToken,
    accountPathPrefix: config.agent.accountPathPrefix,
    budget,
    requestTimeoutMs: config.agent.requestTimeoutMs,
    statusTimeoutMs: config.agent.statusTimeoutMs,
    logger,
  });
  await checkAgentService(
    agentApi,
    { baseUrl: config.agent.baseUrl, timeoutMs: Math.min(config.agent.requestTimeoutMs, STARTUP_CHECK_MS) },
    logger,
  );
  const store = await createStore(
    { redisUrl: config.state.redisUrl, redisPrefix: config.state.redisPrefix },
    logger,
  );
  const slackSide = createSlackWiring({ config, logger, checkedIdentity, records: store });
  const { identity } = slackSide;
  const metrics = createMetrics();
  const errorCode = (error: unknown) => (isAgentApiError(error) ? error.code : 'unexpected');
  const scheduler = createPollScheduler({
    // The scheduler backs off on its own; a second retry loop inside the client would hold the turn.
    getStatus: (agentId, sessionId, callOptions) =>
      agentApi.getRunStatus(agentId, sessionId, { ...callOptions, retryLimit: 0 }),
    slots: budget.pollSlots,
    requestTimeoutMs: config.agent.statusTimeoutMs,
    // Runs past their deadline are looked in on at a slow pace: a tenth of the deadline, 1–30 s.
    lateIntervalMs: Math.min(30_000, Math.max(1_000, config.agent.turnDeadlineMs / 10)),
    clock,
    logger,
  });
  const slackClient = slackSide.webClient();
  const users = createUserDirectory({ fetch: slackUsersInfo(slackClient) });
  const inside = createInsideCheck({
    // Read per check: with OAuth the organisation is the installation's under way.
    app: identity,
    allowExternalUsers: config.access.allowExternalUsers,
    allowGuests: config.access.allowGuests,
    lookup: users.lookup,
    logger,
  });
  // Progress has a Web client of its own (same connection pool): a 429 on a status refresh pauses
  // only that client's queue, never an answer's.
  const progressClient = slackSide.webClient();
  const output = slackSide.routeOutput(
    createSlackThreadOutput({
      client: slackClient,
      progressClient,
      identity,
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
  const settings = {
    instanceId: config.state.instanceId,
    defaultAgentId: config.agent.agentId,
    turnDeadlineMs: config.agent.turnDeadlineMs,
    lateWatchMs: config.agent.lateWatchMs,
    leaseTtlMs: config.state.leaseTtlMs,
  };
  // The one writer of turn locks and records, shared by the starter, delivery and recovery.
  const ledger = createTurnLedger({ store, clock, instanceId: settings.instanceId });
  const delivery = createTurnDelivery({
    ledger,
    store,
    output,
    poller: scheduler,
    progress,
    clock,
    logger,
    metrics,
    settings,
    newReferenceId,
    isPermanentPollError,
    errorCode,
  });
  const channelAgents = createChannelAgents({
    store,
    defaultAgentId: config.agent.agentId,
    now: () => clock.now(),
  });
  const contextClient = slackSide.failFastWebClient();
  const people = createSlackPeopleDirectory(users);
  const context = createTurnContext({
    threads: createSlackThreadReader(contextClient),
    people,
    inside,
    channelAgents,
    clock,
    logger,
    settings: {
      ...config.context,
      get botUserId() {
        return identity.botUserId;
      },
      get botId() {
        return identity.botId;
      },
    },
  });
  const audience = createConversationAudience({
    source: createSlackAudienceSource(slackClient, config.audience.memberLimit),
    cache: store,
    inside,
    get botUserId() {
      return identity.botUserId;
    },
    logger,
  });
  const placement = createAnswerPlacement({
    audience,
    policy: config.audience.outsiderPolicy,
    replies: createSlackPrivateReplies(slackClient, logger),
    logger,
    metrics,
  });
  const turns = createTurnStarter({
    ledger,
    store,
    agent: agentApi,
    output,
    delivery,
    progress,
    clock,
    logger,
    metrics,
    settings,
    inside,
    gate: createIoGate(),
    context,
    placement,
    spending: createSpending({
      store,
      runsPerHour: config.spending.runsPerPersonPerHour,
      clock,
      logger,
      metrics,
      people,
    }),
  });
  const reactions = createReactionFeedback({
    store,
    agent: agentApi,
    logger,
    inside,
    settings: { ...config.feedback, feedbackName: config.feedback.name },
    clock,
  });
  const recovery = createTurnRecovery({ store, delivery, logger, settings, clock, ledger });
  const slack = createSlackApp({
    config,
    identity,
    installations: slackSide.installations,
    logger,
    ops: { metrics: async () => ({ contentType: metrics.contentType, body: await metrics.render() }) },
    listeners: {
      turns,
      reactions,
      inside,
      users,
      agentView: createAgentView({ prompts: config.agentView.suggestedPrompts, logger }),
      config,
      agentApi,
      store,
      channelAgents,
      audience,
    },
  });

  const { port } = await slack.start();
  const adopted = await recovery.adoptOrphans();
  const timers = startLeaseTimers(recovery, config.state.leaseTtlMs, logger);
  logger.info(
    {
      port,
      mode: config.slack.socketMode ? 'socket' : 'http',
      store: store.kind,
      resumed: adopted,
      ...(checkedIdentity
        ? { team: checkedIdentity.teamId, enterprise: checkedIdentity.enterpriseId }
        : { oauth: true }),
    },
    'slack-agent-bridge started',
  );

  let stopped = false;
  async function stop(): Promise<void> {
    if (stopped) return;
    stopped = true;
    for (const timer of timers) clearInterval(timer);
    await slack.stop();
    // Outcomes still retrying stop first, so no other replica posts while one of ours is under way.
    await Promise.all([turns.stop(), delivery.stop()]);
    await recovery.releaseAll();
    await scheduler.stop();
    await progress.close();
    await store.close();
    logger.info({}, 'slack-agent-bridge stopped');
  }
  return { port, metrics, stop };
}

/** Lease renewal every third of the TTL; orphan adoption every half, so takeover is prompt. */
function startLeaseTimers(
  recovery: ReturnType<typeof createTurnRecovery>,
  leaseTtlMs: number,
  logger: Logger,
): NodeJS.Timeout[] {
  const run = (what: string, task: () => Promise<unknown>) => () => {
    task().catch((error: unknown) => logger.error({ err: error }, `${what} failed`));
  };
  const renew = setInterval(run('lease renewal', recovery.renewLeases), Math.max(250, leaseTtlMs / 3));
  const adopt = setInterval(run('turn takeover', recovery.adoptOrphans), Math.max(500, leaseTtlMs / 2));
  renew.unref();
  adopt.unref();
  return [renew, adopt];
}
