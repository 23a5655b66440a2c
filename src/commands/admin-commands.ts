import {
  type AgentApi,
  DEFAULT_RETENTION_DAYS,
  identityProblem,
  isAgentApiError,
} from '../agent-api/index.js';
import type { WatchedChannels } from '../alerts/index.js';
import {
  type CapacityMoveLock,
  CapacityMoveReason,
  isCapacityMoveError,
  moveCapacity,
} from '../capacity/index.js';
import type { ConnectionAdmin } from '../connections/connection-admin.js';
import type { AnswerChannels } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelAgent, ChannelAgents } from '../conversation/context/channel-agents.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { Logger } from '../runtime/logger.js';
import type { AdminCheck } from './access.js';
import { type AlertWebhookPort, runAlertsWebhook } from './alerts-webhook-command.js';
import { runChannelCommand } from './channel-command.js';
import { auditResult, type CommandOutcome, serviceFailure, type WhoamiProblem } from './command-outcome.js';
import { runConnectionsCommand } from './connections-command.js';
import { runExport, type SendFilesToUser } from './export-command.js';
import { helpEntry, type SubcommandName } from './help-text.js';
import type { AgentCommand, ParseResult } from './parse-command.js';
import { runScheduleCommand, type ScheduleCommandPort } from './schedule-command.js';

/**
 * Runs a parsed `/agent` subcommand against the agent service and returns what happened as data.
 * Access is checked here, before any service call; every admin action is logged (who, what,
 * result) — never the account token a create returns.
 */

/** The service calls the commands use. */
export type CommandsApi = Pick<
  AgentApi,
  | 'whoami'
  | 'enableAgent'
  | 'disableAgent'
  | 'listSubAccounts'
  | 'createSubAccount'
  | 'updateSubAccount'
  | 'exportSavedObjects'
>;

/** Everything a command may reach, passed in by the Slack listener. */
export interface CommandContext {
  /** The installation the command was typed in: made by the listener from its event, never looked up. */
  tenant: Tenant;
  /** The default connection's client: the main account's commands, home installations only. */
  api: CommandsApi;
  access: AdminCheck;
  /** False without ACCOUNT_API_TOKEN: account commands then say they are not configured. */
  accountsConfigured: boolean;
  /** AGENT_ID: the agent `enable`/`disable` act on when none is named and the channel has none. */
  defaultAgentId: string;
  /** Channel → agent bindings (`/agent channel …`), shared by every replica through the store. */
  channelAgents: ChannelAgents;
  /** Watched channels (`/agent channel investigate`); unset: that command says it is not configured. */
  watchedChannels?: WatchedChannels | undefined;
  /** Answer channels (`/agent channel answer-all`); unset: that command says it is not configured. */
  answerChannels?: Pick<AnswerChannels, 'settingOf' | 'set'> | undefined;
  /** A fresh lock per capacity move (the store's, shared by every replica). */
  capacityLock: () => CapacityMoveLock;
  /** Uploads files to the person privately (a DM from the bot). */
  sendFilesToUser: SendFilesToUser;
  newReferenceId: () => string;
  /** Service connections (DESIGN "Many accounts"); without them the connections commands show the help. */
  connections?: Pick<ConnectionAdmin, 'list' | 'remove' | 'canAdd' | 'exists'> | undefined;
  /** Opens the add-connection form for the person who typed the command. */
  openConnectionForm?: (() => Promise<void>) | undefined;
  /**
   * The client of one of the tenant's connections (undefined: the default one) for whoami and
   * enable/disable. Default: `api`.
   */
  apiOn?: ((connection: string | undefined) => Promise<CommandsApi>) | undefined;
  /** The installations' own alert tokens (`/agent alerts webhook`); unset without STATE_ENCRYPTION_KEY. */
  alertWebhook?: AlertWebhookPort | undefined;
  /** Scheduled questions (`/agent schedule …`); unset: those commands show the help. */
  schedules?: ScheduleCommandPort | undefined;
  /** Default: the real clock (export file names carry the date). */
  now?: () => Date;
  logger: Logger;
}

/** Who ran the command. */
export interface Invoker {
  userId: string;
  channelId?: string | undefined;
}

/** Subcommands on the operator's main account: home installations only (DESIGN "The home workspaces"). */
const HOME_COMMANDS: ReadonlySet<SubcommandName> = new Set([
  'accounts',
  'accounts-create',
  'capacity-move',
  'export',
]);

/** Subcommands that touch the main account's sub accounts (and so need ACCOUNT_API_TOKEN). */
const ACCOUNT_COMMANDS: ReadonlySet<SubcommandName> = new Set([
  'accounts',
  'accounts-create',
  'capacity-move',
]);

/** Parsed (or not) → outcome. Never throws for service errors: they become outcomes. */
export async function runAgentCommand(
  parsed: ParseResult,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  const name: SubcommandName = parsed.ok ? parsed.command.kind : parsed.subcommand;
  const entry = helpEntry(name);
  if (!entry.adminOnly) {
    if (!parsed.ok) return { kind: 'usage', problem: parsed.problem, usage: parsed.usage };
    return runPublic(parsed.command, invoker, context);
  }
  const outcome = await runGuarded(parsed, invoker, context, name);
  audit(context.logger, invoker, parsed, outcome);
  return outcome;
}

async function runGuarded(
  parsed: ParseResult,
  invoker: Invoker,
  context: CommandContext,
  name: SubcommandName,
): Promise<CommandOutcome> {
  const usage = helpEntry(name).usage;
  if (!(await context.access.isAdmin(invoker.userId, context.tenant))) return { kind: 'refused', usage };
  if (!parsed.ok) return { kind: 'usage', problem: parsed.problem, usage: parsed.usage };
  if (HOME_COMMANDS.has(name) && !context.tenant.home) return { kind: 'home-only', usage };
  if (ACCOUNT_COMMANDS.has(name) && !context.accountsConfigured) return { kind: 'not-configured', usage };
  return runAdmin(parsed.command, invoker, context);
}

async function runPublic(
  command: AgentCommand,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  if (command.kind === 'channel') return runChannel(command, invoker, context);
  if (command.kind !== 'whoami')
    return { kind: 'help', unknown: command.kind === 'help' ? command.unknown : undefined };
  try {
    // The channel's own connection: outside the home installations the default one is not theirs.
    const channelAgent = await channelAgentOf(invoker, context);
    if (channelAgent.source === 'unbound') return { kind: 'channel-unbound' };
    const on = context.apiOn ? await context.apiOn(channelAgent.connection) : context.api;
    const identity = await on.whoami();
    return { kind: 'whoami', accountId: identity.accountId, accountName: identity.accountName };
  } catch (error) {
    const failure = serviceFailure(context, error, 'whoami');
    const problem = whoamiProblem(error);
    const details = isAgentApiError(error)
      ? { status: error.status, serviceMessage: error.serviceMessage }
      : {};
    return { kind: 'whoami-failed', problem, ...details, ...failure };
  }
}

/**
 * The three whoami answers: 401/403 → the token is invalid; any other HTTP answer (or
 * a 200 that is not an identity, as from a wrong host) → the address or path is wrong; the
 * rest (region mismatch, network, maintenance, overload) → the usual sentence.
 */
export function whoamiProblem(error: unknown): WhoamiProblem {
  switch (identityProblem(error)) {
    case 'token-rejected':
      return 'invalid-token';
    case 'not-the-service':
      return 'wrong-address';
    default:
      return 'service';
  }
}

async function runAdmin(
  command: AgentCommand,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { api } = context;
  try {
    switch (command.kind) {
      case 'enable':
      case 'disable': {
        // The channel's connection: its agent (or the one named) lives on that connection's service.
        const channelAgent = await channelAgentOf(invoker, context);
        if (channelAgent.source === 'unbound') return { kind: 'channel-unbound' };
        const agentId = command.agentId ?? channelAgent.agentId;
        const on = context.apiOn ? await context.apiOn(channelAgent.connection) : api;
        const requested = command.kind === 'enable';
        const state = requested ? await on.enableAgent(agentId) : await on.disableAgent(agentId);
        return { kind: 'agent-state', agentId: state.id || agentId, requested, active: state.active };
      }
      case 'accounts':
        return { kind: 'accounts', accounts: await api.listSubAccounts() };
      case 'accounts-create':
        return await createAccount(command, context);
      case 'capacity-move':
        return await moveBetweenAccounts(command, context);
      case 'export':
        return await runExport(command.types, invoker.userId, context);
      case 'channel-use':
        // The default connection is the operator's: another installation binds to its own.
        if (command.connection === undefined && !context.tenant.home) {
          return { kind: 'home-only', usage: helpEntry('channel-use').usage };
        }
        if (
          command.connection !== undefined &&
          !(await context.connections?.exists(command.connection, context.tenant))
        ) {
          return { kind: 'connection-unknown', alias: command.connection };
        }
        return await runChannel(command, invoker, context);
      case 'channel-reset':
      case 'channel-investigate':
      case 'channel-answer-all':
        return await runChannel(command, invoker, context);
      case 'connections':
      case 'connections-add':
      case 'connections-remove': {
        const { connections, openConnectionForm } = context;
        if (!connections || !openConnectionForm) return { kind: 'help' };
        const failure = (error: unknown) => serviceFailure(context, error, command.kind);
        const tenant = context.tenant;
        return await runConnectionsCommand(command, { connections, openConnectionForm, failure, tenant });
      }
      case 'alerts-webhook':
        return await runAlertsWebhook(command, { tenant: context.tenant, ...invoker }, context.alertWebhook);
      case 'schedule':
      case 'schedule-add':
      case 'schedule-remove':
        return await runScheduleCommand(
          command,
          { tenant: context.tenant, ...invoker },
          context.schedules,
          context.channelAgents,
        );
      default:
        return { kind: 'help' };
    }
  } catch (error) {
    return { kind: 'service-error', action: command.kind, ...serviceFailure(context, error, command.kind) };
  }
}

/** The agent (and its connection) `enable`/`disable` act on when none is named: the channel's, else AGENT_ID. */
async function channelAgentOf(invoker: Invoker, context: CommandContext): Promise<ChannelAgent> {
  if (!invoker.channelId) {
    return context.tenant.home
      ? { agentId: context.defaultAgentId, source: 'default' }
      : { source: 'unbound' };
  }
  return context.channelAgents.agentFor(context.tenant, invoker.channelId);
}

function runChannel(
  command: Extract<
    AgentCommand,
    { kind: 'channel' | 'channel-use' | 'channel-reset' | 'channel-investigate' | 'channel-answer-all' }
  >,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  const { channelAgents, watchedChannels, answerChannels, tenant } = context;
  return runChannelCommand(command, { tenant, ...invoker }, channelAgents, watchedChannels, answerChannels);
}

async function createAccount(
  command: Extract<AgentCommand, { kind: 'accounts-create' }>,
  context: CommandContext,
): Promise<CommandOutcome> {
  const retentionDays = command.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const created = await context.api.createSubAccount({
    accountName: command.name,
    email: command.email,
    retentionDays,
    maxDailyGB: command.maxDailyGB,
    sharingObjectsAccounts: [],
  });
  return {
    kind: 'account-created',
    accountId: created.accountId,
    accountName: command.name,
    accountToken: created.accountToken,
    retentionDays,
    retentionDefaulted: command.retentionDays === undefined,
    // The seed: maxDailyGB defaults to 0 when not given.
    maxDailyGB: command.maxDailyGB ?? 0,
    maxDailyGBDefaulted: command.maxDailyGB === undefined,
  };
}

/** Reasons that mean something went wrong after a write, as opposed to a refusal before any. */
const MOVE_FAILURES: ReadonlySet<string> = new Set([
  CapacityMoveReason.UpdateFailed,
  CapacityMoveReason.StateUnknown,
  CapacityMoveReason.VerifyFailed,
]);

async function moveBetweenAccounts(
  command: Extract<AgentCommand, { kind: 'capacity-move' }>,
  context: CommandContext,
): Promise<CommandOutcome> {
  const request = { gb: command.gb, from: command.from, to: command.to };
  try {
    const result = await moveCapacity(context.api, request, { lock: context.capacityLock() });
    return { kind: 'capacity-moved', gb: command.gb, result };
  } catch (error) {
    if (!isCapacityMoveError(error)) throw error;
    if (!MOVE_FAILURES.has(error.reason)) return { kind: 'capacity-failed', failure: error };
    // After a write: the details (and what the restore did) must be findable in the log.
    const { referenceId } = serviceFailure(context, error, 'capacity-move');
    return { kind: 'capacity-failed', failure: error, referenceId };
  }
}

/** What was asked, minus anything personal or secret beyond what an audit needs. */
function describeRequest(parsed: ParseResult): Record<string, unknown> {
  if (!parsed.ok) return { subcommand: parsed.subcommand, parseError: parsed.problem };
  const { kind, ...args } = parsed.command;
  if (kind === 'accounts-create') {
    const { email: _email, ...rest } = args as Record<string, unknown>;
    return { subcommand: kind, ...rest };
  }
  if (kind === 'schedule-add') {
    // The question is a prompt: kept out of info logs (its length is enough for an audit).
    const { question, ...rest } = args as { question: string };
    return { subcommand: kind, ...rest, questionChars: question.length };
  }
  return { subcommand: kind, ...args };
}

/** One audit line per admin action: who, what, result (and the reference id when it failed). */
function audit(logger: Logger, invoker: Invoker, parsed: ParseResult, outcome: CommandOutcome): void {
  const fields: Record<string, unknown> = {
    audit: true,
    user: invoker.userId,
    channel: invoker.channelId,
    ...describeRequest(parsed),
    result: auditResult(outcome),
    outcome: outcome.kind,
  };
  if ('referenceId' in outcome) fields.referenceId = outcome.referenceId;
  if (outcome.kind === 'account-created') fields.accountId = outcome.accountId;
  if (outcome.kind === 'capacity-failed') fields.reason = outcome.failure.reason;
  if (outcome.kind === 'agent-state') fields.active = outcome.active;
  if (outcome.kind === 'channel-bound' || outcome.kind === 'channel-reset') {
    fields.agentId = outcome.agentId;
    fields.previousAgentId = outcome.previousAgentId;
    if (outcome.connection !== undefined) fields.connection = outcome.connection;
  }
  if (outcome.kind === 'connection-remove') {
    fields.removal = outcome.result.outcome;
    if (outcome.result.outcome === 'in-use') fields.channels = outcome.result.channels;
  }
  if (outcome.kind === 'channel-watch' || outcome.kind === 'channel-answer-all') {
    fields.on = outcome.on;
    fields.wasOn = outcome.wasOn;
  }
  if (outcome.kind === 'schedule-added' || outcome.kind === 'schedule-removed') {
    fields.scheduleId = outcome.schedule.id;
    fields.timeZone = outcome.schedule.timeZone;
  }
  if (outcome.kind === 'schedule-refused') fields.reason = outcome.reason;
  if (outcome.kind === 'exported')
    fields.counts = Object.fromEntries(outcome.files.map((f) => [f.type, f.count]));
  logger.info(fields, 'admin command');
}
