import { checkAgentService, createAccountBudgets } from './agent-api/index.js';
import { createAlertInvestigations, createAlertTokens } from './alerts/index.js';
import { wireAppHome } from './composition/app-home-room.js';
import { startLeaseTimers } from './composition/lease-timers.js';
import { createScheduleBook, wireSchedules } from './composition/schedules-room.js';
import { createServicePoller, errorCode, isPermanentPollError } from './composition/service-polling.js';
import { wireTurnContext } from './composition/turn-context-room.js';
import { wireTurnOutput } from './composition/turn-output-room.js';
import type { Config } from './config/load-config.js';
import { createDefaultServiceClient, createServiceConnections } from './connections/service-connections.js';
import { createAnswerPlacement } from './conversation/access/answer-place.js';
import { createConversationAudience } from './conversation/access/audience.js';
import { createSpending } from './conversation/access/spending.js';
import { createInsideCheck } from './conversation/access/who-is-inside.js';
import { createAnswerChannels } from './conversation/answer-channels/answer-channels.js';
import { createChannelAgents } from './conversation/context/channel-agents.js';
import { createRatings } from './conversation/feedback/ratings.js';
import { createIoGate } from './conversation/polling/io-gate.js';
import { createRunStop } from './conversation/run-stop.js';
import { createTenancy, defaultHomeTeamIds } from './conversation/tenancy.js';
import { createAudienceAtPost } from './conversation/turn/audience-at-post.js';
import { createTurnDelivery } from './conversation/turn/turn-delivery.js';
import { createTurnLedger } from './conversation/turn/turn-ledger.js';
import { createTurnRecovery } from './conversation/turn/turn-recovery.js';
import { createTurnStarter } from './conversation/turn/turn-starter.js';
import { createViewedContext } from './conversation/viewed-context.js';
import { createMetrics, type Metrics } from './metrics.js';
import { type Clock, systemClock } from './runtime/clock.js';
import type { Logger } from './runtime/logger.js';
import { createAgentView } from './slack/agent-view.js';
import { createSlackAlertOutput } from './slack/alert-output.js';
import { createSlackApp } from './slack/app.js';
import { createSlackMembership } from './slack/channel-membership.js';
import { createSlackAudienceSource } from './slack/conversation-audience.js';
import { alertInstallations, singleAlertInstallation } from './slack/installations/alert-installations.js';
import { createSlackWiring } from './slack/installations/slack-wiring.js';
import { createSlackPrivateReplies } from './slack/private-replies.js';
import { createSlackScheduleOutput } from './slack/schedule-output.js';
import { checkSlackToken } from './slack/startup-check.js';
import { createUserDirectory, slackUsersInfo } from './slack/user-directory.js';
import { newReferenceId } from './slack/views/describe-error.js';
import { createStore } from './store/index.js';

/** The agent service check's bound at start-up, like the Slack token check's. */
const STARTUP_CHECK_MS = 10_000;

export interface RunningBot {
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
export async function startBot(
  config: Config,
  options: {
    logger: Logger;
    clock?: Clock;
    /** The schedule ticker's time (tests move it alone). Default: `clock`. */
    scheduleClock?: Clock;
  },
): Promise<RunningBot> {
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
  // The store first: the account's request budget is leased in it (DESIGN "Redis beyond one node").
  const store = await createStore(
    { redisUrl: config.state.redisUrl, redis: config.state.redis, redisPrefix: config.state.redisPrefix },
    logger,
  );
  const budgets = createAccountBudgets({
    leases: store,
    instanceId: config.state.instanceId,
    accountLimit: config.agent.accountConcurrency,
    processLimit: config.agent.maxInFlight,
    pollShare: config.agent.pollShare,
    ttlMs: config.state.leaseTtlMs,
    logger,
  });
  // Every service client (the default one, and each connection admins add) comes from one factory;
  // each account's requests count against its budget, leased in the store by every replica.
  const {
    factory,
    defaultApi: agentApi,
    budget,
  } = createDefaultServiceClient(config, logger, (key) => budgets.budgetFor(key));
  try {
    await checkAgentService(
      agentApi,
      { baseUrl: config.agent.baseUrl, timeoutMs: Math.min(config.agent.requestTimeoutMs, STARTUP_CHECK_MS) },
      logger,
    );
  } catch (error) {
    await budgets.stop();
    await store.close();
    throw error;
  }
  const slackSide = createSlackWiring({ config, logger, checkedIdentity, records: store });
  const { identity } = slackSide;
  // Who is home (HOME_TEAM_IDS; one workspace: its own) and how installations name their state.
  const tenancy = createTenancy({
    homeTeamIds: defaultHomeTeamIds(config.tenants.homeTeamIds, checkedIdentity),
    many: config.slack.oauth !== undefined,
  });
  const metrics = createMetrics();
  const connections = createServiceConnections({
    config,
    factory,
    defaultApi: agentApi,
    store,
    logger,
    clock,
    keyOf: tenancy.keyOf,
  });
  const scheduler = createServicePoller({
    config,
    clients: connections.clients,
    tenancy,
    within: (teamId, work) => slackSide.within(teamId, work),
    slots: budget.pollSlots,
    clock,
    logger,
  });
  const slackClient = slackSide.webClient();
  const users = createUserDirectory({
    fetch: slackUsersInfo(slackClient),
    partition: slackSide.installationKey,
  });
  const inside = createInsideCheck({
    // Read per check: with OAuth the organisation is the installation's under way.
    app: identity,
    allowExternalUsers: config.access.allowExternalUsers,
    allowGuests: config.access.allowGuests,
    lookup: users.lookup,
    logger,
  });
  const { output, progress, sessions } = wireTurnOutput({
    config,
    slackSide,
    client: slackClient,
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
  // Channels where every person's top-level message is a question (DESIGN "Answer channels").
  const answerChannels = createAnswerChannels({ store, now: () => clock.now() });
  const scheduleClock = options.scheduleClock ?? clock;
  const scheduleBook = createScheduleBook(store, scheduleClock, config.schedules.perChannel);
  const { appHome, homeActivity } = wireAppHome({
    config,
    store,
    answerChannels,
    schedules: scheduleBook,
    inside,
    identity,
    users,
    connections,
    client: slackClient,
    clock,
    logger,
    // A republish after a turn runs in the turn's installation, with that installation's tenant.
    within: (teamId, work) => slackSide.within(teamId, () => work(tenancy.of(identity))),
  });
  // The one writer of turn locks and records, shared by the starter, delivery and recovery.
  const ledger = createTurnLedger({ store, clock, instanceId: settings.instanceId });
  const channelAgents = createChannelAgents({
    store,
    defaultAgentId: config.agent.agentId,
    now: () => clock.now(),
  });
  const { context, people } = wireTurnContext({
    config,
    slackSide,
    users,
    inside,
    channelAgents,
    clock,
    logger,
  });
  const audience = createConversationAudience({
    source: createSlackAudienceSource(slackClient, config.audience.memberLimit),
    cache: store,
    partition: slackSide.installationKey,
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
  const audienceAtPost = createAudienceAtPost({ placement, logger });
  const delivery = createTurnDelivery({
    ledger,
    store,
    output,
    poller: scheduler,
    progress,
    sessions,
    clock,
    logger,
    metrics,
    settings,
    newReferenceId,
    isPermanentPollError,
    errorCode,
    observer: homeActivity,
    // DESIGN "Audience at every post": asked again just before service data is posted, in the
    // turn's own installation (a delivery runs long after its event, from the poller).
    audienceAtPost: {
      placeFor: (turn) => slackSide.within(turn.teamId, () => audienceAtPost.placeFor(turn)),
    },
  });
  const turns = createTurnStarter({
    ledger,
    store,
    agent: agentApi,
    connections: connections.runs,
    output,
    delivery,
    progress,
    sessions,
    clock,
    logger,
    metrics,
    settings,
    inside,
    gate: createIoGate(),
    context: createViewedContext({
      context,
      audience,
      membership: createSlackMembership(slackClient),
      logger,
    }),
    placement,
    spending: createSpending({
      store,
      runsPerHour: config.spending.runsPerPersonPerHour,
      clock,
      logger,
      metrics,
      people,
    }),
    observer: homeActivity,
  });
  // Who a webhook alert or a scheduled question is for: it runs as that installation.
  const installationScope = slackSide.installations
    ? alertInstallations(slackSide.installations, tenancy)
    : singleAlertInstallation(identity, tenancy);
  // What an alert investigation and a scheduled question share with a mention: they start runs
  // of their own (no Slack event) and hand them to the same delivery, in their installation.
  const ownRuns = {
    store,
    ledger,
    agent: agentApi,
    // Runs go on the channel's binding, its connection included, as mentions do.
    connections: connections.runs,
    output,
    delivery,
    progress,
    audience,
    channelAgents,
    metrics,
    clock,
    logger,
    installations: installationScope,
    // They count in App Home's weekly runs, as their answers do.
    observer: homeActivity,
  };
  const alerts = createAlertInvestigations({
    ...ownRuns,
    settings,
    alertOutput: createSlackAlertOutput(slackClient, identity),
    config: {
      ...config.alerts,
      outsiderPolicy: config.audience.outsiderPolicy,
      maxChars: config.context.maxChars,
      lookbackMinutes: config.context.alertLookbackMinutes,
    },
    identity,
    tokens: connections.secrets
      ? createAlertTokens({ records: store, box: connections.secrets, now: () => clock.now() })
      : undefined,
  });
  // DESIGN "Scheduled questions": asked in their channel at their time, each occurrence once.
  const schedules = wireSchedules({
    ...ownRuns,
    schedules: scheduleBook,
    sessions,
    settings: { ...settings, graceMs: config.schedules.graceMs },
    scheduleClock,
    outsiderPolicy: config.audience.outsiderPolicy,
    connectionExists: (alias, tenant) => connections.admin.exists(alias, tenant),
    zoneOf: async (userId) => (await users.lookup(userId))?.tz,
    scheduleOutput: createSlackScheduleOutput(slackClient),
  });
  const reactions = createRatings({
    store,
    agent: agentApi,
    connections: connections.runs,
    logger,
    inside,
    settings: { ...config.feedback, feedbackName: config.feedback.name },
    clock,
    onRated: homeActivity.rated,
  });
  const recovery = createTurnRecovery({ store, delivery, logger, settings, clock, ledger });
  const slack = createSlackApp({
    config,
    identity,
    installations: slackSide.installations,
    logger,
    ops: { metrics: async () => ({ contentType: metrics.contentType, body: await metrics.render() }) },
    routes: [alerts.route],
    tenancy,
    listeners: {
      turns,
      reactions,
      stops: createRunStop({ ledger, delivery, inside, sessions, logger, metrics }),
      inside,
      users,
      agentView: createAgentView({ prompts: config.agentView.suggestedPrompts, logger }),
      appHome,
      // `/agent enable|disable` notes the state in the command's installation (the listener names it).
      agentStates: homeActivity,
      agentApi,
      store,
      channelAgents,
      audience,
      alerts,
      answerChannels,
      connections,
      schedules: schedules.command,
    },
  });

  const { port } = await slack.start();
  const adopted = await recovery.adoptOrphans();
  const timers = startLeaseTimers(recovery, config.state.leaseTtlMs, logger);
  schedules.start();
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
    await schedules.stop();
    appHome.stop();
    await slack.stop();
    // Outcomes still retrying stop first, so no other replica posts while one of ours is under way.
    await Promise.all([turns.stop(), delivery.stop(), alerts.intake.settle()]);
    await recovery.releaseAll();
    await scheduler.stop();
    await progress.close();
    await budgets.stop();
    await store.close();
    logger.info({}, 'slack-agent-bridge stopped');
  }
  return { port, metrics, stop };
}
