import type { AgentApi, SavedObjectType } from '../agent-api/index.js';
import type { AlertTokens, WatchedChannels } from '../alerts/index.js';
import type { CapacityMoveLock } from '../capacity/index.js';
import type { ConnectionAdmin } from '../connections/connection-admin.js';
import type { AnswerChannels } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelAgent, ChannelAgents } from '../conversation/context/channel-agents.js';
import type { Schedules } from '../conversation/schedules/schedules.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { Logger } from '../runtime/logger.js';
import type { AdminCheck } from './access.js';

/** One exported type, as uploaded. */
export interface ExportedFile {
  type: SavedObjectType;
  filename: string;
  /** The response text exactly as the service served it. */
  content: string;
  /** Saved objects in it (`hits.length`). */
  count: number;
}

/** Port: upload `files` to `userId` in a DM from the bot, with `comment` above them. */
export type SendFilesToUser = (
  userId: string,
  files: readonly ExportedFile[],
  comment: string,
) => Promise<void>;

/** What `/agent alerts webhook` reaches: the installations' tokens and the route's public address. */
export interface AlertWebhookPort {
  tokens: Pick<AlertTokens, 'tokenOf' | 'rotate'>;
  /** The alert route's address for `tenant`, naming the channel the command was typed in. */
  address: (tenant: Tenant, channelId: string | undefined) => string;
}

/** What `/agent schedule …` reaches, made once in the composition root (schedules-room.ts). */
export interface ScheduleCommandPort {
  schedules: Pick<Schedules, 'add' | 'remove' | 'inChannel'>;
  /** The person's Slack time zone (`users.info` → `tz`), in the command's installation. */
  zoneOf(userId: string): Promise<string | undefined>;
  /** Whether outsiders can read `channel` (audience.ts); false when OUTSIDER_AUDIENCE=thread. */
  refusesOutsiders(channel: string): Promise<boolean>;
}

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
  channelAgents: ChannelAgents;
  /** Unset: `/agent channel investigate` says it is not configured. */
  watchedChannels?: WatchedChannels | undefined;
  /** Unset: `/agent channel answer-all` says it is not configured. */
  answerChannels?: Pick<AnswerChannels, 'settingOf' | 'set'> | undefined;
  /** A fresh lock per capacity move (the store's, shared by every replica). */
  capacityLock: () => CapacityMoveLock;
  sendFilesToUser: SendFilesToUser;
  newReferenceId: () => string;
  /** Service connections (DESIGN "Many accounts"); without them the connections commands show the help. */
  connections?: Pick<ConnectionAdmin, 'list' | 'remove' | 'canAdd' | 'exists'> | undefined;
  /** Opens the add-connection form for the person who typed the command. */
  openConnectionForm?: (() => Promise<void>) | undefined;
  /** The client of one of the tenant's connections (undefined: the default one). Default: `api`. */
  apiOn?: ((connection: string | undefined) => Promise<CommandsApi>) | undefined;
  /** Unset without STATE_ENCRYPTION_KEY. */
  alertWebhook?: AlertWebhookPort | undefined;
  /** Unset: the schedule commands show the help. */
  schedules?: ScheduleCommandPort | undefined;
  /** Default: the real clock (export file names carry the date). */
  now?: () => Date;
  logger: Logger;
}

export type Invoker = { userId: string; channelId?: string | undefined };

/** The agent a command acts on, with its client: the channel's, else (home only) AGENT_ID; undefined: none. */
export async function channelConnection({ channelId }: Invoker, context: CommandContext) {
  const { tenant, apiOn } = context;
  const agent: ChannelAgent = channelId
    ? await context.channelAgents.agentFor(tenant, channelId)
    : tenant.home
      ? { agentId: context.defaultAgentId, source: 'default' }
      : { source: 'unbound' };
  if (agent.source === 'unbound') return undefined;
  return { agentId: agent.agentId, api: apiOn ? await apiOn(agent.connection) : context.api };
}
