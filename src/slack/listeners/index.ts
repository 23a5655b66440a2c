import type { App } from '@slack/bolt';
import type { AgentApi } from '../../agent-api/index.js';
import type { Config } from '../../config.js';
import type { ServiceConnections } from '../../connections/service-connections.js';
import type { ConversationAudience } from '../../conversation/audience.js';
import type { ChannelAgents } from '../../conversation/channel-agents.js';
import type { ConversationStore, Logger } from '../../conversation/ports.js';
import type { ReactionFeedback } from '../../conversation/reaction-feedback.js';
import type { TurnStarter } from '../../conversation/turn-service.js';
import type { InsideCheck } from '../../conversation/who-is-inside.js';
import type { AgentView } from '../agent-view.js';
import type { SlackIdentity } from '../app.js';
import type { UserDirectory } from '../user-directory.js';
import { registerActionListeners } from './actions/index.js';
import { registerCommandListeners } from './commands/index.js';
import { registerEventListeners } from './events/index.js';
import { registerViewListeners } from './views/index.js';

/** What listeners may reach: conversation services and, for commands, the agent-api client. */
export interface ListenerDeps {
  turns: TurnStarter;
  reactions: ReactionFeedback;
  /** Who is inside the organisation: every entry path asks it (see payload-person.ts). */
  inside: InsideCheck;
  /** Cached users.info (admins, and what else needs to know a person). */
  users: UserDirectory;
  agentView: AgentView;
  agentApi: AgentApi;
  store: ConversationStore;
  /** Which agent each channel's new threads use (`/agent channel …`). */
  channelAgents: ChannelAgents;
  /** Who reads each conversation: sharing and membership events drop what is known. */
  audience: Pick<ConversationAudience, 'forget'>;
  /** Service connections (`/agent connections …`, the add form); absent in narrow tests. */
  connections?: Pick<ServiceConnections, 'admin' | 'clients'> | undefined;
  config: Config;
  identity: SlackIdentity;
  logger: Logger;
}

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerEventListeners(app, deps);
  registerCommandListeners(app, deps);
  registerActionListeners(app, deps);
  registerViewListeners(app, deps);
}
