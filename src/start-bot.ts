import { createAlertInvestigations, createAlertTokens } from './alerts/index.js';
import { createCapacityLock } from './commands/capacity-lock.js';
import { createBotContext } from './composition/bot-context.js';
import { startLeaseTimers } from './composition/lease-timers.js';
import { createScheduleBook, wireSchedules } from './composition/schedules-room.js';
import { createServicePoller } from './composition/service-polling.js';
import { openServiceSide } from './composition/service-side.js';
import { wireTurns } from './composition/turn-room.js';
import type { Config } from './config/load-config.js';
import { createServiceConnections } from './connections/service-connections.js';
import { createInsideCheck } from './conversation/access/who-is-inside.js';
import { createAnswerChannels } from './conversation/answer-channels/answer-channels.js';
import { createChannelAgents } from './conversation/context/channel-agents.js';
import { createRatings } from './conversation/feedback/ratings.js';
import { wireAppHome } from './home/app-home.js';
import type { Metrics } from './metrics.js';
import { type Clock, systemClock } from './runtime/clock.js';
import type { Logger } from './runtime/logger.js';
import { createAgentView } from './slack/agent-view.js';
import { createSlackAlertOutput } from './slack/alert-output.js';
import { createSlackApp } from './slack/app.js';
import { alertInstallations, singleAlertInstallation } from './slack/installations/alert-installations.js';
import { createSlackWiring } from './slack/installations/slack-wiring.js';
import { createSlackScheduleOutput } from './slack/schedule-output.js';
import { checkSlackToken } from './slack/startup-check.js';
import { createUserDirectory, slackUsersInfo } from './slack/user-directory.js';
import { renderHome } from './slack/views/home-view.js';

export interface RunningBot {
  /** The HTTP port serving /slack/events (HTTP mode), /healthz and /metrics. */
  port: number;
  metrics: Metrics;
  /** Stops taking traffic, gives up leases (another replica resumes the turns), closes the store. */
  stop(): Promise<void>;
}

/** The composition root (config → adapters → services → Slack app): `npm start`, sandbox and e2e tests. */
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
  const { store, budgets, factory, defaultApi: agentApi, budget } = await openServiceSide(config, logger);
  const slackSide = createSlackWiring({ config, logger, checkedIdentity, records: store });
  const ctx = createBotContext(config, { clock, logger, slack: slackSide });
  const { identity, tenancy, metrics } = ctx;
  const connections = createServiceConnections({
    config,
    factory,
    defaultApi: agentApi,
    store,
    logger,
    clock,
    keyOf: tenancy.keyOf,
  });
  const poller = createServicePoller(ctx, { clients: connections.clients, slots: budget.pollSlots });
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
  const now = () => clock.now();
  const answerChannels = createAnswerChannels({ store, now });
  const scheduleClock = options.scheduleClock ?? clock;
  const scheduleBook = createScheduleBook(store, scheduleClock, config.schedules.perChannel);
  const { appHome, homeActivity } = wireAppHome({
    publish: (userId, home) =>
      slackClient.views.publish({ user_id: userId, view: renderHome(home, identity) }),
    within: ctx.withinTenant,
    store,
    inside,
    admins: { adminUserIds: config.access.adminUserIds, app: identity, lookupUser: users.lookup },
    connections: { list: connections.admin.list, aliases: connections.admin.aliases, now },
    answerChannels,
    schedules: scheduleBook,
    defaultAgentId: config.agent.agentId,
    prompts: config.agentView.suggestedPrompts,
    republishIntervalMs: config.home.republishMs,
    byInstallation: config.slack.oauth !== undefined,
    now,
    logger,
  });
  const channelAgents = createChannelAgents({ store, defaultAgentId: config.agent.agentId, now });
  const { output, progress, sessions, ledger, audience, runner, turns, recovery, stops } = wireTurns(ctx, {
    store,
    agentApi,
    connections,
    poller,
    client: slackClient,
    users,
    inside,
    channelAgents,
    observer: homeActivity,
  });
  // Alert investigations and scheduled questions start runs of their own, in their installation.
  const ownRuns = {
    store,
    ledger,
    agent: agentApi,
    // Runs go on the channel's binding, its connection included, as mentions do.
    connections: connections.runs,
    output,
    runner,
    progress,
    audience,
    channelAgents,
    metrics,
    clock,
    logger,
    // Who a webhook alert or a scheduled question is for: it runs as that installation.
    installations: slackSide.installations
      ? alertInstallations(slackSide.installations, tenancy)
      : singleAlertInstallation(identity, tenancy),
    // They count in App Home's weekly runs, as their answers do.
    observer: homeActivity,
    settings: ctx.turnSettings,
  };
  const alerts = createAlertInvestigations({
    ...ownRuns,
    alertOutput: createSlackAlertOutput(slackClient, identity),
    config: {
      ...config.alerts,
      outsiderPolicy: config.audience.outsiderPolicy,
      maxChars: config.context.maxChars,
      lookbackMinutes: config.context.alertLookbackMinutes,
    },
    identity,
    tokens: connections.secrets
      ? createAlertTokens({ records: store, box: connections.secrets, now })
      : undefined,
  });
  // DESIGN "Scheduled questions": asked in their channel at their time, each occurrence once.
  const schedules = wireSchedules({
    ...ownRuns,
    schedules: scheduleBook,
    sessions,
    settings: { ...ctx.turnSettings, graceMs: config.schedules.graceMs },
    scheduleClock,
    outsiderPolicy: config.audience.outsiderPolicy,
    connectionExists: connections.admin.exists,
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
      stops,
      inside,
      users,
      agentView: createAgentView({ prompts: config.agentView.suggestedPrompts, logger }),
      appHome,
      // `/agent enable|disable` notes the state in the command's installation (the listener names it).
      agentStates: homeActivity,
      agentApi,
      capacityLock: () => createCapacityLock(store, config.state.instanceId),
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
  const mode = config.slack.socketMode ? 'socket' : 'http';
  const workspace = checkedIdentity
    ? { team: checkedIdentity.teamId, enterprise: checkedIdentity.enterpriseId }
    : { oauth: true };
  logger.info(
    { port, mode, store: store.kind, resumed: adopted, ...workspace },
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
    await Promise.all([turns.stop(), runner.stop(), alerts.intake.settle()]);
    await recovery.releaseAll();
    await poller.stop();
    await progress.close();
    await budgets.stop();
    await store.close();
    logger.info({}, 'slack-agent-bridge stopped');
  }
  return { port, metrics, stop };
}
