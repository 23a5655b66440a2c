/**
 * Which Slack messages become agent turns (DESIGN "Which messages are turns"). Pure.
 * https://docs.slack.dev/reference/events/message
 */
import type { ThreadMessage } from '../context/context-ports.js';

/** The fields of a `message` or `app_mention` event this decision reads; the rest as a thread's message. */
export interface SlackMessageLike
  extends Pick<
    ThreadMessage,
    'ts' | 'subtype' | 'user' | 'bot_id' | 'text' | 'user_team' | 'team' | 'source_team' | 'files'
  > {
  type: 'message' | 'app_mention';
  channel: string;
  /** `im` for a DM; absent on `app_mention`. */
  channel_type?: string | undefined;
  thread_ts?: string | undefined;
}

export interface ClassifierContext {
  botUserId: string;
  /** The app's bot id (`B…`): messages it posts carry it as `bot_id`. */
  botId?: string | undefined;
  /** Channels where the bot answers; empty means everywhere. DMs are always allowed. */
  allowedChannelIds: readonly string[];
}

export type IgnoreReason = 'bot' | 'subtype' | 'no-user' | 'not-addressed' | 'channel-not-allowed';

export type Classification =
  /** Start a turn (or a follow-up, if the thread already has a session). */
  | { kind: 'turn'; threadTs: string; mentioned: boolean; directMessage: boolean; userId: string }
  /** A reply in a thread without a mention: a turn only in a thread the bot has answered in. */
  | { kind: 'maybe-follow-up'; threadTs: string; userId: string }
  /** Nothing to do; `tellUser`: a mention outside the allowlist, whose sender is told why. */
  | { kind: 'ignore'; reason: IgnoreReason; tellUser: boolean };

/** Subtypes that are a person's message (`/me` too); any other is an edit, deletion or system event. */
const PEOPLES_SUBTYPES: ReadonlySet<string> = new Set(['thread_broadcast', 'file_share', 'me_message']);

function ignore(reason: IgnoreReason, tellUser = false): Classification {
  return { kind: 'ignore', reason, tellUser };
}

/** Any bot's message, ours included (its `bot_id` is set, so `botId` needs no check of its own). */
const isFromBot = (event: SlackMessageLike, context: ClassifierContext): boolean =>
  event.bot_id !== undefined || event.subtype === 'bot_message' || event.user === context.botUserId;

/** True when the bot is mentioned: an `app_mention` event, or `<@BOT>` / `<@BOT|name>` in the text. */
export function mentionsBot(event: SlackMessageLike, botUserId: string): boolean {
  if (event.type === 'app_mention') return true;
  const text = event.text ?? '';
  return text.includes(`<@${botUserId}>`) || text.includes(`<@${botUserId}|`);
}

const isDirectMessage = (event: SlackMessageLike): boolean =>
  event.channel_type === 'im' || (event.channel_type === undefined && event.channel.startsWith('D'));

/**
 * What a message means for the bot (group DMs count as channels). Whether the sender is inside is
 * asked afterwards (who-is-inside.ts): only would-be turns are worth a `users.info`.
 */
export function classifyMessage(event: SlackMessageLike, context: ClassifierContext): Classification {
  if (isFromBot(event, context)) return ignore('bot');
  if (event.subtype !== undefined && !PEOPLES_SUBTYPES.has(event.subtype)) return ignore('subtype');
  if (!event.user) return ignore('no-user');
  const directMessage = isDirectMessage(event);
  const mentioned = mentionsBot(event, context.botUserId);
  const addressed = directMessage || mentioned;
  if (!addressed && event.thread_ts === undefined) return ignore('not-addressed');
  const allowlist = context.allowedChannelIds;
  if (!directMessage && allowlist.length > 0 && !allowlist.includes(event.channel)) {
    return ignore('channel-not-allowed', mentioned);
  }
  const threadTs = event.thread_ts ?? event.ts;
  if (addressed) return { kind: 'turn', threadTs, mentioned, directMessage, userId: event.user };
  return { kind: 'maybe-follow-up', threadTs, userId: event.user };
}
