import {
  type AllMiddlewareArgs,
  type App,
  MultipleListenerError,
  type SlackEventMiddlewareArgs,
} from '@slack/bolt';
import type { SlackEvent } from '@slack/types';
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

type EventListener<K extends string> = (
  args: SlackEventMiddlewareArgs<K> & AllMiddlewareArgs,
) => Promise<void>;
/** The event types the app listens to: manifest.yml's bot_events must cover them (manifest.test.ts). */
export const LISTENED_EVENTS = [
  'app_mention',
  'message',
  'reaction_added',
  'app_home_opened',
  'agent_session_stopped',
  'app_context_changed',
  'channel_shared',
  'channel_unshared',
  'member_joined_channel',
  'member_left_channel',
] as const satisfies ReadonlyArray<SlackEvent['type']>;
type Routes = { [K in (typeof LISTENED_EVENTS)[number]]: Array<EventListener<K>> };

/** Event types → listeners. A mention arrives as `app_mention` and `message`: the intake dedupes. */
function routesOf(ports: EventPorts): Routes {
  const audienceChanged = audienceChangedListener(ports);
  return {
    app_mention: [messageListener(ports, 'app_mention')],
    message: [messageListener(ports, 'message'), watchedChannelListener(ports), answerChannelListener(ports)],
    reaction_added: [reactionAddedListener(ports)],
    app_home_opened: [appHomeOpenedListener(ports)],
    // Stop on a thread's agent session; where the person looks (app_context then rides on message.im).
    agent_session_stopped: [agentSessionStoppedListener(ports)],
    app_context_changed: [appContextChangedListener(ports)],
    channel_shared: [audienceChanged],
    channel_unshared: [audienceChanged],
    member_joined_channel: [audienceChanged],
    member_left_channel: [audienceChanged],
  };
}

export function registerEventListeners(app: App, ports: EventPorts): void {
  app.event(new RegExp(`^(?:${LISTENED_EVENTS.join('|')})$`), dispatchTo(routesOf(ports)));
}

/**
 * One Bolt listener for every event, dispatching on its type: Bolt runs every registered listener's
 * matcher chain for each request, so a listener per type cost a dozen chains per event (bench/README,
 * "cost above the libraries"). Failures reach Bolt's error handler as its own dispatch reports them.
 */
function dispatchTo(routes: Routes) {
  return async (args: SlackEventMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    const listeners = (routes[args.event.type as keyof Routes] ?? []) as Array<EventListener<string>>;
    const settled = await Promise.allSettled(listeners.map((listener) => listener(args as never)));
    const failed = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    if (failed.length === 1) throw failed[0];
    if (failed.length > 1) throw new MultipleListenerError(failed);
  };
}
