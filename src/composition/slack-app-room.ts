/**
 * The Slack app: Bolt with every room's listeners, POST /alerts beside /healthz and /metrics, and
 * the few parts only its listeners use (feedback ratings, the agent view, the capacity lock).
 */
import type { AgentApi } from '../agent-api/index.js';
import type { AlertInvestigations } from '../alerts/index.js';
import { createCapacityLock } from '../commands/capacity-lock.js';
import type { ServiceConnections } from '../connections/service-connections.js';
import { createRatings } from '../conversation/feedback/ratings.js';
import { createAgentView } from '../slack/agent-view.js';
import { createSlackApp } from '../slack/app.js';
import type { StateStore } from '../store/index.js';
import type { BotContext } from './bot-context.js';
import type { wireTurns } from './turn-room.js';

type Listeners = Parameters<typeof createSlackApp>[0]['listeners'];

/** What the app is handed: the rooms' listeners, and what its own parts are built from. */
type SlackAppRoomDeps = Pick<
  Listeners,
  'inside' | 'users' | 'appHome' | 'channelAgents' | 'answerChannels'
> & {
  store: StateStore;
  agentApi: AgentApi;
  connections: ServiceConnections;
  turns: Pick<ReturnType<typeof wireTurns>, 'turns' | 'stops' | 'audience'>;
  alerts: AlertInvestigations;
  schedules: Listeners['schedules'];
  /** App Home's activity: ratings given, agents enabled or disabled. */
  homeActivity: NonNullable<Listeners['agentStates']> & {
    rated: Parameters<typeof createRatings>[0]['onRated'];
  };
};

/** Assembles the Slack app (not started). */
export function wireSlackApp(ctx: BotContext, deps: SlackAppRoomDeps) {
  const { config, identity, logger, metrics } = ctx;
  const { store, agentApi, connections, inside, homeActivity } = deps;
  const reactions = createRatings({
    store,
    agent: agentApi,
    connections: connections.runs,
    logger,
    inside,
    settings: { ...config.feedback, feedbackName: config.feedback.name },
    clock: ctx.clock,
    onRated: homeActivity.rated,
  });
  return createSlackApp({
    config,
    identity,
    installations: ctx.slack.installations,
    logger,
    ops: { metrics: async () => ({ contentType: metrics.contentType, body: await metrics.render() }) },
    routes: [deps.alerts.route],
    tenancy: ctx.tenancy,
    listeners: {
      turns: deps.turns.turns,
      reactions,
      stops: deps.turns.stops,
      inside,
      users: deps.users,
      agentView: createAgentView({ prompts: config.agentView.suggestedPrompts, logger }),
      appHome: deps.appHome,
      // `/agent enable|disable` notes the state in the command's installation (the listener names it).
      agentStates: homeActivity,
      agentApi,
      capacityLock: () => createCapacityLock(store, config.state.instanceId),
      channelAgents: deps.channelAgents,
      audience: deps.turns.audience,
      alerts: deps.alerts,
      answerChannels: deps.answerChannels,
      connections,
      schedules: deps.schedules,
    },
  });
}
