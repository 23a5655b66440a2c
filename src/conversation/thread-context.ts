/**
 * A thread's messages as the agent's `additionalContext` (DESIGN "Thread context"): one line per
 * message with its time (UTC) and author, text from `text`, attachments and blocks, Slack's
 * control sequences made readable, within a character budget that counts everything sent. Past
 * the budget the first message (the thread's root) and the newest are kept and the omission is
 * counted. Pure.
 */
import type { ThreadMessage } from './context-ports.js';
import { messageMarkup } from './message-content.js';
import { readableSlackText } from './message-text.js';

export interface ThreadContextInput {
  /** The messages to show, oldest first (the root first, when it is one of them). */
  messages: readonly ThreadMessage[];
  /** Display names by user id (authors and mentions); an unknown id is shown as is. */
  names: ReadonlyMap<string, string>;
  /** Characters the whole text may use (THREAD_CONTEXT_MAX_CHARS). */
  maxChars: number;
  /** What the lines are, e.g. "Earlier messages in this Slack thread". */
  heading: string;
  /** Messages that existed but were not read (a thread longer than the reader's cap). */
  unread?: number | undefined;
}

export interface ThreadContext {
  text: string;
  /** Messages shown (whole or cut). */
  included: number;
  /** Messages left out to fit, plus those never read. */
  omitted: number;
}

const CUT_MARK = ' … [cut]';
/** A newest message is cut to fit rather than dropped, unless less than this would be left of it. */
const MIN_CUT_LINE = 80;

/** C0 controls (ANSI escapes included) and DEL, except tab and line breaks, which are handled below. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** "2026-11-23 13:05 UTC" from a Slack ts (seconds since the epoch, as a string). */
export function utcMinute(ts: string): string {
  const date = new Date(Math.floor(Number(ts) * 1000));
  if (Number.isNaN(date.getTime())) return '(unknown time)';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Who wrote a message: a person's name, or a bot's / integration's name marked "(bot)". */
export function authorOf(message: ThreadMessage, names: ReadonlyMap<string, string>): string {
  const isBot = message.bot_id !== undefined || message.subtype === 'bot_message';
  if (isBot) {
    const name = message.bot_profile?.name ?? message.username ?? (message.user && names.get(message.user));
    return `${name || message.bot_id || 'a bot'} (bot)`;
  }
  if (!message.user) return 'someone';
  return names.get(message.user) ?? message.user;
}

/** One message on one line: `[time] author: text`. */
export function renderMessageLine(message: ThreadMessage, names: ReadonlyMap<string, string>): string {
  const readable = readableSlackText(messageMarkup(message), { userName: (id) => names.get(id) })
    .replace(CONTROL_CHARACTERS, '')
    .replace(/\s*(?:\r\n|\r|\n)+\s*/g, ' / ')
    .replace(/[ \t]+/g, ' ')
    .trim();
  return `[${utcMinute(message.ts)}] ${authorOf(message, names)}: ${readable || '(no text)'}`;
}

function cut(line: string, room: number): string {
  if (line.length <= room) return line;
  return `${line.slice(0, Math.max(0, room - CUT_MARK.length))}${CUT_MARK}`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The whole context text; undefined when there is nothing to send or the budget is 0. */
export function buildThreadContext(input: ThreadContextInput): ThreadContext | undefined {
  const { messages, names, maxChars } = input;
  if (maxChars <= 0 || messages.length === 0) return undefined;
  const unread = input.unread ?? 0;
  const total = messages.length + unread;
  const heading = (omitted: number) =>
    omitted === 0
      ? `${input.heading} (times in UTC):`
      : `${input.heading} (times in UTC; ${omitted} of ${total} messages left out to fit):`;
  const lines = messages.map((message) => renderMessageLine(message, names));
  const whole = [heading(unread), ...lines].join('\n');
  if (unread === 0 && whole.length <= maxChars) return { text: whole, included: lines.length, omitted: 0 };
  return fitted(lines, heading, total, maxChars);
}

/** Keeps the first line (cut to at most half the room) and as many of the newest as fit. */
function fitted(
  lines: string[],
  heading: (omitted: number) => string,
  total: number,
  maxChars: number,
): ThreadContext {
  const marker = (omitted: number) => `… ${plural(omitted, 'message')} left out …`;
  // Reserve the longest heading and marker the count could need, and their line breaks.
  let room = maxChars - heading(total).length - marker(total).length - 3;
  const [firstLine = '', ...rest] = lines;
  const first = cut(firstLine, Math.max(0, Math.floor(room / (rest.length > 0 ? 2 : 1))));
  room -= first.length;
  const newest: string[] = [];
  for (let index = rest.length - 1; index >= 0; index -= 1) {
    const line = rest[index] as string;
    if (line.length + 1 <= room) {
      newest.unshift(line);
      room -= line.length + 1;
      continue;
    }
    // The newest message is what the asker most likely reacts to: cut it rather than lose it.
    if (newest.length === 0 && room - 1 >= MIN_CUT_LINE) newest.unshift(cut(line, room - 1));
    break;
  }
  const included = 1 + newest.length;
  const omitted = total - included;
  const parts = [heading(omitted), first, ...(omitted > 0 ? [marker(omitted)] : []), ...newest];
  // Only a budget too small for even the heading gets here with more than it allows.
  return { text: parts.join('\n').slice(0, maxChars), included, omitted };
}
