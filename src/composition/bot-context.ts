import type { Config } from '../config/load-config.js';
import { createTenancy, defaultHomeTeamIds, type Tenancy, type Tenant } from '../conversation/tenancy.js';
import { createMetrics, type Metrics } from '../metrics.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import type { SlackWiring } from '../slack/installations/slack-wiring.js';
import type { SlackIdentity } from '../slack/slack-identity.js';

/**
 * The bot's one context (CONVENTIONS 18), built once in start-bot.ts; each room passes on only the
 * parts its factories use.
 */
export interface BotContext {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  /** One workspace's clients, or (OAuth) the installation under way's, and routing by thread team. */
  slack: SlackWiring;
  /** Who the bot is: `auth.test`'s, or with OAuth the installation's under way (read per use). */
  identity: SlackIdentity;
  /** Which installations are home (HOME_TEAM_IDS), and their store keys. */
  tenancy: Tenancy;
  /** Runs later work (a poll result, a home republish) in the installation `teamId` names, with its tenant. */
  withinTenant<T>(teamId: string, work: (tenant: Tenant) => Promise<T>): Promise<T>;
  /** What every run start, delivery and recovery is told: one literal, made once. */
  turnSettings: {
    instanceId: string;
    defaultAgentId: string;
    turnDeadlineMs: number;
    lateWatchMs: number;
    leaseTtlMs: number;
  };
}

/** Builds the context from the config and the parts start-bot.ts made. */
export function createBotContext(
  config: Config,
  parts: { clock: Clock; logger: Logger; slack: SlackWiring },
): BotContext {
  const { identity } = parts.slack;
  const tenancy = createTenancy({
    // HOME_TEAM_IDS; one workspace: its own (its identity is auth.test's).
    homeTeamIds: defaultHomeTeamIds(config.tenants.homeTeamIds, config.slack.oauth ? undefined : identity),
    many: config.slack.oauth !== undefined,
  });
  return {
    ...parts,
    config,
    metrics: createMetrics(),
    identity,
    tenancy,
    withinTenant: (teamId, work) => parts.slack.within(teamId, () => work(tenancy.of(identity))),
    turnSettings: {
      instanceId: config.state.instanceId,
      defaultAgentId: config.agent.agentId,
      turnDeadlineMs: config.agent.turnDeadlineMs,
      lateWatchMs: config.agent.lateWatchMs,
      leaseTtlMs: config.state.leaseTtlMs,
    },
  };
}
