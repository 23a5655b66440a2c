import type { AgentApi } from '../../agent-api/index.js';
import type { AlertInvestigations } from '../../alerts/index.js';
import type { ScheduleCommandPort } from '../../commands/schedule-command.js';
import type { Config } from '../../config/load-config.js';
import type { ServiceConnections } from '../../connections/service-connections.js';
import type { ConversationAudience } from '../../conversation/access/audience.js';
import type { InsideCheck } from '../../conversation/access/who-is-inside.js';
import type { AnswerChannels } from '../../conversation/answer-channels/answer-channels.js';
import type { ChannelAgents } from '../../conversation/context/channel-agents.js';
import type { Ratings } from '../../conversation/feedback/ratings.js';
import type { AgentSeen } from '../../conversation/home-ports.js';
import type { ConversationStore } from '../../conversation/ports.js';
import type { RunStop } from '../../conversation/run-stop.js';
import type { Tenancy } from '../../conversation/tenancy.js';
import type { TurnIntake } from '../../conversation/turn/turn-intake.js';
import type { Logger } from '../../runtime/logger.js';
import type { AgentView } from '../agent-view.js';
import type { AppHome } from '../app-home.js';
import type { SlackIdentity } from '../slack-identity.js';
import type { UserDirectory } from '../user-directory.js';

/*
 * A leaf of its own: every listener takes these, and index.ts registers the listeners, so the
 * listeners import this file rather than index.ts.
 */

/** What listeners may reach: conversation services and, for commands, the agent-api client. */
export interface ListenerDeps {
  turns: TurnIntake;
  reactions: Ratings;
  /** Stop pressed on a thread's agent session. */
  stops: RunStop;
  /** Who is inside the organisation: every entry path asks it (see payload-person.ts). */
  inside: InsideCheck;
  /** Cached users.info (admins, and what else needs to know a person). */
  users: UserDirectory;
  agentView: AgentView;
  /** The Home tab (DESIGN "App Home"); absent: the tab is left as Slack shows it. */
  appHome?: Pick<AppHome, 'opened' | 'settingsChanged'> | undefined;
  /** Which installations are home (HOME_TEAM_IDS), and their store keys: the event's tenant. */
  tenancy: Tenancy;
  /** Told what `/agent enable|disable` left an agent at (the admins' App Home lists it). */
  agentStates?: { agentSeen(seen: Omit<AgentSeen, 'at'>): Promise<void> } | undefined;
  agentApi: AgentApi;
  store: ConversationStore;
  /** Which agent each channel's new threads use (`/agent channel …`). */
  channelAgents: ChannelAgents;
  /** Who reads each conversation: sharing and membership events drop what is known. */
  audience: Pick<ConversationAudience, 'forget'>;
  /** Alert investigations: watched channels (`/agent channel investigate`). */
  alerts?: Pick<AlertInvestigations, 'intake' | 'watched' | 'tokens'> | undefined;
  /** Channels where every top-level message is a question (`/agent channel answer-all`). */
  answerChannels?: Pick<AnswerChannels, 'settingOf' | 'set'> | undefined;
  /** Service connections (`/agent connections …`, the add form); absent in narrow tests. */
  connections?: Pick<ServiceConnections, 'admin' | 'clients'> | undefined;
  /** Scheduled questions (`/agent schedule …`); absent: those commands show the help. */
  schedules?: ScheduleCommandPort | undefined;
  config: Config;
  identity: SlackIdentity;
  logger: Logger;
}
