import type { AlertInvestigations } from '../../alerts/index.js';
import type { CapacityMoveLock } from '../../capacity/index.js';
import type { CommandsApi, ScheduleCommandPort } from '../../commands/command-context.js';
import type { ServiceConnections } from '../../connections/service-connections.js';
import type { InsideCheck } from '../../conversation/access/who-is-inside.js';
import type { AnswerChannels } from '../../conversation/answer-channels/answer-channels.js';
import type { ChannelAgents } from '../../conversation/context/channel-agents.js';
import type { AppHome } from '../../home/app-home.js';
import type { AgentSeen } from '../../home/home-ports.js';
import type { Logger } from '../../runtime/logger.js';
import type { SlackIdentity } from '../slack-identity.js';
import type { UserDirectory } from '../user-directory.js';

/** What `/agent` and the admin check reach (every other listener declares its own ports). */
export interface ListenerDeps {
  /** Who is inside the organisation: every entry path asks it (see payload-person.ts). */
  inside: InsideCheck;
  /** Cached users.info: who is an admin. */
  users: UserDirectory;
  appHome?: Pick<AppHome, 'settingsChanged'> | undefined;
  /** Told what `/agent enable|disable` left an agent at (the admins' App Home lists it). */
  agentStates?: { agentSeen(seen: Omit<AgentSeen, 'at'>): Promise<void> } | undefined;
  agentApi: CommandsApi;
  /** One capacity move at a time across replicas: a fresh lock per command. */
  capacityLock: () => CapacityMoveLock;
  channelAgents: ChannelAgents;
  alerts?: Pick<AlertInvestigations, 'watched' | 'tokens'> | undefined;
  answerChannels?: Pick<AnswerChannels, 'settingOf' | 'set'> | undefined;
  connections?: Pick<ServiceConnections, 'admin' | 'clients'> | undefined;
  /** Absent: `/agent schedule` shows the help. */
  schedules?: ScheduleCommandPort | undefined;
  /** The settings `/agent` and the admin check read, picked from the config in the composition root. */
  commands: {
    /** ALLOW_EXTERNAL_USERS */
    allowExternalUsers: boolean;
    /** ADMIN_USER_IDS */
    adminUserIds: readonly string[];
    /** ACCOUNT_API_TOKEN is set: the account subcommands can run. */
    accountsConfigured: boolean;
    /** AGENT_ID */
    defaultAgentId: string;
    /** SLACK_REDIRECT_URI, whose origin is where the alert route is reached (OAuth only). */
    redirectUri?: string | undefined;
  };
  identity: SlackIdentity;
  logger: Logger;
}
