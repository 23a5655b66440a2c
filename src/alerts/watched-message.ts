/** Which posts in a watched channel are alerts: another bot's or integration's new post, not a recovery. */
import type { BotUser, ThreadMessage } from '../conversation/context/context-ports.js';
import { messageMarkup } from '../conversation/context/message-content.js';
import { readableSlackText } from '../conversation/context/message-text.js';
import { authorKind, authorName } from '../conversation/context/thread-context.js';
import { type Alert, alertTitle } from './alert-payload.js';

/** A `message` event's fields this decision reads. */
export interface WatchedMessage extends ThreadMessage {
  channel: string;
  thread_ts?: string | undefined;
}

export type WatchedVerdict =
  | { kind: 'alert'; alert: Alert; eventKey: string; cooldownText: string }
  | { kind: 'skip'; reason: 'not-an-integration-post' | 'reply' | 'no-text' | 'recovery' };

/** Where a recovery says so: its first words (titles like "[RESOLVED] …", "Recovered: …"). */
const RECOVERY_HEAD_CHARS = 300;
const RECOVERY = /\b(resolved|recovered)\b|\[ok\]|\bback to normal\b/i;

/** The bot's own post (its card, its answers) is never an alert. */
function isIntegrationPost(message: WatchedMessage, own: BotUser): boolean {
  if (message.subtype !== undefined && message.subtype !== 'bot_message') return false;
  if (message.bot_id === undefined && message.subtype !== 'bot_message') return false;
  return message.bot_id !== own.botId && message.user !== own.botUserId;
}

/** A post in a watched channel as an alert, or why it is not one. */
export function watchedAlert(message: WatchedMessage, own: BotUser): WatchedVerdict {
  if (!isIntegrationPost(message, own)) return { kind: 'skip', reason: 'not-an-integration-post' };
  if (message.thread_ts !== undefined && message.thread_ts !== message.ts)
    return { kind: 'skip', reason: 'reply' };
  const text = readableSlackText(messageMarkup(message)).trim();
  const title = text
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  if (!title) return { kind: 'skip', reason: 'no-text' };
  if (RECOVERY.test(text.slice(0, RECOVERY_HEAD_CHARS))) return { kind: 'skip', reason: 'recovery' };
  const author = `${authorName(message, new Map())} (${authorKind(message) ?? 'bot'})`;
  return {
    kind: 'alert',
    eventKey: `message:${message.ts}`,
    cooldownText: title,
    alert: {
      // Bold markers (`*Triggered:*`) are formatting, not words of the title.
      title: alertTitle(title.replace(/\*([^*\n]+)\*/g, '$1')),
      description: `Posted in Slack by ${author}:\n${text}`,
      windowStart: Math.floor(Number(message.ts) * 1000) || undefined,
      tags: [],
    },
  };
}
