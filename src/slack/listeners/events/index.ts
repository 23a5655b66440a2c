import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../listener-deps.js';
import { agentSessionStoppedListener } from './agent-session-stopped.js';
import { answerChannelListener } from './answer-channel-message.js';
import { appContextChangedListener } from './app-context-changed.js';
import { appHomeOpenedListener } from './app-home-opened.js';
import { audienceChangedListener } from './audience-changed.js';
import { messageListener } from './message.js';
import { reactionAddedListener } from './reaction-added.js';
import { watchedChannelListener } from './watched-channel-message.js';

/**
 * Event ids → listeners. A channel mention arrives as both `app_mention` and `message`; both
 * go to the same intake, which dedupes on channel:ts.
 */
export function registerEventListeners(app: App, deps: ListenerDeps): void {
  app.event('app_mention', messageListener(deps, 'app_mention'));
  app.event('message', messageListener(deps, 'message'));
  // Integration posts in watched channels are alerts (DESIGN "Alert investigations").
  app.event('message', watchedChannelListener(deps));
  // People's top-level messages in answer channels are questions (DESIGN "Answer channels").
  app.event('message', answerChannelListener(deps));
  app.event('reaction_added', reactionAddedListener(deps));
  app.event('app_home_opened', appHomeOpenedListener(deps));
  // Stop on a thread's agent session; where the person looks (app_context then rides on message.im).
  app.event('agent_session_stopped', agentSessionStoppedListener(deps));
  app.event('app_context_changed', appContextChangedListener(deps));
  // Who can read a conversation changed: the next question asks Slack again.
  app.event('channel_shared', audienceChangedListener(deps));
  app.event('channel_unshared', audienceChangedListener(deps));
  app.event('member_joined_channel', audienceChangedListener(deps));
  app.event('member_left_channel', audienceChangedListener(deps));
}
