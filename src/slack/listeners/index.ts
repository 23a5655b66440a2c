import type { App } from '@slack/bolt';
import type { AgentApi } from '../../agent-api/index.js';
import type { Config } from '../../config.js';
import type { ConversationStore, Logger } from '../../conversation/ports.js';
import type { ReactionFeedback } from '../../conversation/reaction-feedback.js';
import type { TurnStarter } from '../../conversation/turn-service.js';
import type { SlackIdentity } from '../app.js';
import { registerCommandListeners } from './commands/index.js';
import { registerEventListeners } from './events/index.js';

/** What listeners may reach: conversation services and, for commands, the agent-api client. */
export interface ListenerDeps {
  turns: TurnStarter;
  reactions: ReactionFeedback;
  agentApi: AgentApi;
  store: ConversationStore;
  config: Config;
  identity: SlackIdentity;
  logger: Logger;
}

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerEventListeners(app, deps);
  registerCommandListeners(app, deps);
}
