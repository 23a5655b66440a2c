import { createBotContext } from './composition/bot-context.js';
import { startLeaseTimers } from './composition/lease-timers.js';
import { wireOwnRuns } from './composition/own-runs-room.js';
import { wirePeople } from './composition/people-room.js';
import { createScheduleBook } from './composition/schedules-room.js';
import { connectServices, openServiceSide } from './composition/service-side.js';
import { wireSlackApp } from './composition/slack-app-room.js';
import { wireTurns } from './composition/turn-room.js';
import type { Config } from './config/load-config.js';
import { createAnswerChannels } from './conversation/answer-channels/answer-channels.js';
import { createChannelAgents } from './conversation/context/channel-agents.js';
import { wireAppHome } from './home/app-home.js';
import type { Metrics } from './metrics.js';
import { type Clock, systemClock } from './runtime/clock.js';
import type { Logger } from './runtime/logger.js';
import { createSlackWiring } from './slack/installations/slack-wiring.js';
import { checkSlackToken } from './slack/startup-check.js';
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
  const service = await openServiceSide(config, logger);
  const { store, budgets, defaultApi: agentApi } = service;
  const slackSide = createSlackWiring({ config, logger, checkedIdentity, records: store });
  const ctx = createBotContext(config, { clock, logger, slack: slackSide });
  const { identity, metrics } = ctx;
  const { connections, poller } = connectServices(ctx, service);
  const client = slackSide.webClient();
  const { users, inside } = wirePeople(ctx, client);
  const now = () => clock.now();
  const answerChannels = createAnswerChannels({ store, now });
  const scheduleClock = options.scheduleClock ?? clock;
  const scheduleBook = createScheduleBook(store, scheduleClock, config.schedules.perChannel);
  const { appHome, homeActivity } = wireAppHome({
    publish: (userId, home) => client.views.publish({ user_id: userId, view: renderHome(home, identity) }),
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
  // What the rooms below draw on: the store, the service, Slack's client, who is who, App Home's activity.
  const shared = {
    store,
    agentApi,
    connections,
    client,
    users,
    inside,
    channelAgents,
    observer: homeActivity,
  };
  const turnRoom = wireTurns(ctx, { ...shared, poller });
  const { runner, turns, recovery, progress } = turnRoom;
  const { alerts, schedules } = wireOwnRuns(ctx, { ...shared, turns: turnRoom, scheduleBook, scheduleClock });
  const slack = wireSlackApp(ctx, {
    ...shared,
    turns: turnRoom,
    appHome,
    homeActivity,
    alerts,
    answerChannels,
    schedules: schedules.command,
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
