import { DEFAULT_TEAM_ID } from './defaults.js';
import { type BuiltMessageEvent, type MessageEventInput, messageEvent } from './event-builders.js';
import { nextSlackTs } from './ts-clock.js';

/**
 * The events of Slack's agent platform, shaped as @slack/types 3.2 types them
 * (`AgentSessionStoppedEvent`, `AppContextChangedEvent`): Stop pressed on a thread's agent
 * session, the place a person views, and a DM question carrying that place (`app_context`).
 */

type Extra = Record<string, unknown>;

/** A place a person views: a channel, or a message (thread) in it. */
export interface ViewedPlaceInput {
  channel: string;
  /** A message in the channel (the thread's root): a `message_context` entity. */
  messageTs?: string;
  /** The place's workspace. Default T0TEST. */
  teamId?: string;
}

/** `agent_session_stopped`: `user` pressed Stop on the session of the thread `thread_ts`. */
export function agentSessionStoppedEvent(input: {
  channel: string;
  thread_ts: string;
  user?: string;
}): Extra {
  return {
    type: 'agent_session_stopped',
    channel: input.channel,
    user: input.user ?? 'UALICE',
    thread_ts: input.thread_ts,
    streaming_message_ts: [],
    event_ts: nextSlackTs(),
  };
}

/** `app_context` as Slack puts it on app_context_changed and message.im: the viewed entities, in order. */
export function appContext(place: ViewedPlaceInput): { entities: Extra[] } {
  const team_id = place.teamId ?? DEFAULT_TEAM_ID;
  const channel = { type: 'slack#/types/channel_id', value: place.channel, team_id };
  if (place.messageTs === undefined) return { entities: [channel] };
  const message = {
    type: 'slack#/types/message_context',
    value: { message_ts: place.messageTs, channel_id: place.channel },
    team_id,
  };
  return { entities: [message, channel] };
}

/** `app_context_changed`: the person with the agent's DM `channel` open moved to `place`. */
export function appContextChangedEvent(input: {
  channel: string;
  user?: string;
  place: ViewedPlaceInput;
}): Extra {
  return {
    type: 'app_context_changed',
    channel: input.channel,
    user: input.user ?? 'UALICE',
    context: appContext(input.place),
    event_ts: nextSlackTs(),
  };
}

/** A DM question (`message.im`) asked while viewing `place`. */
export function dmMessageViewing(input: MessageEventInput & { place: ViewedPlaceInput }): BuiltMessageEvent {
  const { place, ...message } = input;
  return messageEvent({ ...message, extra: { ...message.extra, app_context: appContext(place) } });
}
