import type { App } from '@slack/bolt';
import type { ConversationAudience } from '../../../conversation/access/audience.js';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import type { RunStop } from '../../../conversation/run-stop.js';
import { agentSessionStoppedListener } from './agent-session-stopped.js';
import { type AnswerChannelPorts, answerChannelListener } from './answer-channel-message.js';
import { appContextChangedListener } from './app-context-changed.js';
import { appHomeOpenedListener, type HomeOpenedPorts } from './app-home-opened.js';
import { audienceChangedListener } from './audience-changed.js';
import { type MessagePorts, messageListener } from './message.js';
import { reactionAddedListener } from './reaction-added.js';
import { type WatchedChannelPorts, watchedChannelListener } from './watched-channel-message.js';

/** What the event listeners use, together: each listener's own type names its part. */
export type EventPorts = MessagePorts &
  AnswerChannelPorts &
  WatchedChannelPorts &
  HomeOpenedPorts & {
    stops: RunStop;
    reactions: Ratings;
    audience: Pick<ConversationAudience, 'forget'>;
  };

/** Event ids → listeners. A mention arrives as `app_mention` and `message`: the intake dedupes. */
export function registerEventListeners(app: App, ports: EventPorts): void {
  app.event('app_mention', messageListener(ports, 'app_mention'));
  app.event('message', messageListener(ports, 'message'));
  app.event('message', watchedChannelListener(ports));
  app.event('message', answerChannelListener(ports));
  app.event('reaction_added', reactionAddedListener(ports));
  app.event('app_home_opened', appHomeOpenedListener(ports));
  // Stop on a thread's agent session; where the person looks (app_context then rides on message.im).
  app.event('agent_session_stopped', agentSessionStoppedListener(ports));
  app.event('app_context_changed', appContextChangedListener(ports));
  app.event('channel_shared', audienceChangedListener(ports));
  app.event('channel_unshared', audienceChangedListener(ports));
  app.event('member_joined_channel', audienceChangedListener(ports));
  app.event('member_left_channel', audienceChangedListener(ports));
}
