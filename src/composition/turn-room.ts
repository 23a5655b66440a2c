/**
 * The turns of mentions and messages (DESIGN "Turns"): output and context, audience, the ledger,
 * intake, runner, recovery and Stop. Output and progress are routed to the thread's installation.
 */
import type { AgentApi } from '../agent-api/index.js';
import type { ServiceConnections } from '../connections/service-connections.js';
import { createAnswerPlacement } from '../conversation/access/answer-place.js';
import { createConversationAudience } from '../conversation/access/audience.js';
import { createSpending } from '../conversation/access/spending.js';
import type { InsideCheck } from '../conversation/access/who-is-inside.js';
import { createAgentSessions } from '../conversation/agent-session.js';
import type { ChannelAgents } from '../conversation/context/channel-agents.js';
import { createFileGathering } from '../conversation/context/file-gathering.js';
import { createTurnContext } from '../conversation/context/turn-context.js';
import { createIoGate } from '../conversation/polling/io-gate.js';
import { createRunStop } from '../conversation/run-stop.js';
import { createAudienceAtPost } from '../conversation/turn/audience-at-post.js';
import { createTurnIntake } from '../conversation/turn/turn-intake.js';
import { createTurnLedger } from '../conversation/turn/turn-ledger.js';
import type { TurnObserver } from '../conversation/turn/turn-observer.js';
import { createTurnProgress } from '../conversation/turn/turn-progress.js';
import { createTurnRecovery } from '../conversation/turn/turn-recovery.js';
import { createTurnRunner } from '../conversation/turn/turn-runner.js';
import { createViewedContext } from '../conversation/viewed-context.js';
import { createSlackAgentSessions } from '../slack/agent-sessions.js';
import { createSlackMembership } from '../slack/channel-membership.js';
import { createSlackAudienceSource } from '../slack/conversation-audience.js';
import { createSlackFileReader } from '../slack/file-download.js';
import { createSlackPeopleDirectory } from '../slack/people-directory.js';
import { createSlackPrivateReplies } from '../slack/private-replies.js';
import { createSlackThreadOutput } from '../slack/thread-output.js';
import { createSlackThreadReader } from '../slack/thread-reader.js';
import { createSlackThreadStatus } from '../slack/thread-status.js';
import type { UserDirectory } from '../slack/user-directory.js';
import { newReferenceId } from '../slack/views/describe-error.js';
import type { StateStore } from '../store/index.js';
import type { BotContext } from './bot-context.js';
import { type createServicePoller, errorCode, isPermanentPollError } from './service-polling.js';

/** What the turns room is handed besides the bot's context. */
export interface TurnRoomDeps {
  store: StateStore;
  agentApi: AgentApi;
  connections: Pick<ServiceConnections, 'runs'>;
  poller: ReturnType<typeof createServicePoller>;
  /** The Web client answers, notices and private replies go out on. */
  client: ReturnType<BotContext['slack']['webClient']>;
  users: UserDirectory;
  inside: InsideCheck;
  channelAgents: ChannelAgents;
  /** App Home's activity: runs started, outcomes posted. */
  observer: TurnObserver;
}

export function wireTurns(ctx: BotContext, deps: TurnRoomDeps) {
  const { config, slack, clock, logger, metrics, turnSettings: settings } = ctx;
  const { store, client, inside, observer } = deps;
  const { output, progress, sessions } = wireTurnOutput(ctx, client);
  // The one writer of turn locks and records, shared by intake, the runner and recovery.
  const ledger = createTurnLedger({ store, clock, instanceId: settings.instanceId });
  const { context, people } = wireTurnContext(ctx, deps);
  const audience = createConversationAudience({
    source: createSlackAudienceSource(client, config.audience.memberLimit),
    cache: store,
    partition: slack.installationKey,
    inside,
    bot: ctx.identity,
    logger,
  });
  const placement = createAnswerPlacement({
    audience,
    policy: config.audience.outsiderPolicy,
    replies: createSlackPrivateReplies(client, logger),
    logger,
    metrics,
  });
  const audienceAtPost = createAudienceAtPost({ placement, logger });
  // What the runner and intake share: the one ledger, the thread's output and the bot's context.
  const shared = { ledger, store, output, progress, sessions, clock, logger, metrics, settings, observer };
  const runner = createTurnRunner({
    ...shared,
    poller: deps.poller,
    newReferenceId,
    isPermanentPollError,
    errorCode,
    // DESIGN "Audience at every post": asked again just before service data is posted, in the
    // turn's own installation (a delivery runs long after its event, from the poller).
    audienceAtPost: { placeFor: (turn) => slack.within(turn.teamId, () => audienceAtPost.placeFor(turn)) },
  });
  const turns = createTurnIntake({
    ...shared,
    agent: deps.agentApi,
    connections: deps.connections.runs,
    runner,
    inside,
    gate: createIoGate(),
    context: createViewedContext({ context, audience, membership: createSlackMembership(client), logger }),
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
  const recovery = createTurnRecovery({ store, runner, logger, settings, ledger });
  const stops = createRunStop({ ledger, runner, inside, sessions, logger, metrics });
  return { output, progress, sessions, ledger, audience, runner, turns, recovery, stops };
}

function wireTurnOutput(ctx: BotContext, client: ReturnType<BotContext['slack']['webClient']>) {
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

function wireTurnContext(ctx: BotContext, deps: Pick<TurnRoomDeps, 'users' | 'inside' | 'channelAgents'>) {
  const { config, slack, identity, clock, logger } = ctx;
  const people = createSlackPeopleDirectory(deps.users);
  const context = createTurnContext({
    threads: createSlackThreadReader(slack.failFastWebClient()),
    people,
    inside: deps.inside,
    channelAgents: deps.channelAgents,
    files: createFileGathering({
      reader: createSlackFileReader({ apiUrl: config.slack.apiUrl, token: slack.botToken, logger }),
      logger,
      settings: { maxChars: config.context.fileMaxChars },
    }),
    bot: identity,
    clock,
    logger,
    settings: config.context,
  });
  return { context, people };
}
