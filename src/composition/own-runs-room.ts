/**
 * Runs of the bot's own: alert investigations (DESIGN "Alert investigations") and scheduled questions
 * (DESIGN "Scheduled questions"). Each starts its runs through a run start of its own, on the turns
 * room's ledger, runner and output, in the installation the alert or the schedule is for.
 */
import { createAlertInvestigations, createAlertTokens } from '../alerts/index.js';
import type { ServiceConnections } from '../connections/service-connections.js';
import type { Schedules } from '../conversation/schedules/schedules.js';
import type { Clock } from '../runtime/clock.js';
import { createSlackAlertOutput } from '../slack/alert-output.js';
import { alertInstallations, singleAlertInstallation } from '../slack/installations/alert-installations.js';
import { createSlackScheduleOutput } from '../slack/schedule-output.js';
import type { BotContext } from './bot-context.js';
import { wireSchedules } from './schedules-room.js';
import type { TurnRoomDeps, wireTurns } from './turn-room.js';

/** What the own-runs room is handed besides the bot's context: much of what the turns room is. */
type OwnRunsRoomDeps = Omit<TurnRoomDeps, 'connections' | 'poller' | 'inside'> & {
  connections: Pick<ServiceConnections, 'runs' | 'secrets' | 'admin'>;
  /** The turns room's parts a run goes through, as a mention's does. */
  turns: Omit<ReturnType<typeof wireTurns>, 'turns' | 'recovery' | 'stops'>;
  scheduleBook: Schedules;
  /** The schedule ticker's time (tests move it alone). */
  scheduleClock: Clock;
};

/** Assembles the own-runs room: alert investigations, then scheduled questions. */
export function wireOwnRuns(ctx: BotContext, deps: OwnRunsRoomDeps) {
  const { config, identity, tenancy, metrics, clock, logger } = ctx;
  const { store, connections, client } = deps;
  const { ledger, output, runner, progress, audience, sessions } = deps.turns;
  // Alert investigations and scheduled questions start runs of their own, in their installation.
  const ownRuns = {
    store,
    ledger,
    agent: deps.agentApi,
    // Runs go on the channel's binding, its connection included, as mentions do.
    connections: connections.runs,
    output,
    runner,
    progress,
    audience,
    channelAgents: deps.channelAgents,
    metrics,
    clock,
    logger,
    // Who a webhook alert or a scheduled question is for: it runs as that installation.
    installations: ctx.slack.installations
      ? alertInstallations(ctx.slack.installations, tenancy)
      : singleAlertInstallation(identity, tenancy),
    // They count in App Home's weekly runs, as their answers do.
    observer: deps.observer,
    settings: ctx.turnSettings,
  };
  const alerts = createAlertInvestigations({
    ...ownRuns,
    alertOutput: createSlackAlertOutput(client, identity),
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
    schedules: deps.scheduleBook,
    sessions,
    settings: { ...ctx.turnSettings, graceMs: config.schedules.graceMs },
    scheduleClock: deps.scheduleClock,
    outsiderPolicy: config.audience.outsiderPolicy,
    connectionExists: connections.admin.exists,
    zoneOf: async (userId) => (await deps.users.lookup(userId))?.tz,
    scheduleOutput: createSlackScheduleOutput(client),
  });
  return { alerts, schedules };
}
