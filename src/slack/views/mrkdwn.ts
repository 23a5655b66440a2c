/**
 * The one place that makes Slack mrkdwn text within Slack's limits
 * (https://docs.slack.dev/messaging/formatting-message-text). Text that is not a control sequence
 * the bot means is escaped (`&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`) *before* it is cut, so
 * escaping can never grow a text past its limit; a cut never splits an escape (`&amp;`) or a
 * control sequence (`<@U…>`, `<#C…>`, `<url|label>`), nor an emoji. Lists that would grow past a
 * limit are summarised ("…and N more"), long texts split into several blocks. Pure.
 */
import { escapeSlackText } from './slack-escape.js';
import { truncate } from './text-cut.js';

export { escapeSlackText };

/** A section's text and a context element's text: 3,000 (https://docs.slack.dev/reference/block-kit/blocks). */
export const MRKDWN_MAX_CHARS = 3_000;

/** An escape or a control sequence: never cut inside one. */
const ATOM = /&(?:amp|lt|gt);|<[^<>\n]*>/g;

/** The latest index ≤ `at` that is not inside an escape or a control sequence. */
function atomBoundary(text: string, at: number): number {
  ATOM.lastIndex = 0;
  for (let match = ATOM.exec(text); match && match.index < at; match = ATOM.exec(text)) {
    const end = match.index + match[0].length;
    if (end > at) return match.index;
  }
  return at;
}

/** Shortens mrkdwn text (already escaped, with the bot's own control sequences) as `truncate` does. */
export function cutMrkdwn(text: string, max: number, ellipsis = '…'): string {
  return truncate(text, max, ellipsis, atomBoundary);
}

/** Untrusted or literal text as mrkdwn: escaped, then cut to `max`. */
export function escapedText(text: string, max: number = MRKDWN_MAX_CHARS): string {
  return cutMrkdwn(escapeSlackText(text), max);
}

/** "…and N more": the line a summarised list ends with. */
export const andMore = (count: number) => `…and ${count} more`;

/**
 * Lines (each already mrkdwn) joined by newlines within `max` characters and `maxLines` lines;
 * when not all fit, as many as fit and then "…and N more". A single line too long is cut.
 */
export function summariseLines(
  lines: readonly string[],
  max: number = MRKDWN_MAX_CHARS,
  maxLines = Number.POSITIVE_INFINITY,
): string {
  const kept: string[] = [];
  let length = -1; // the newline before the first line is not there
  for (const [i, line] of lines.entries()) {
    const rest = lines.length - i - 1;
    // Keeping this line must leave room for the "…and N more" line of those after it.
    const room = max - length - 1 - (rest > 0 ? andMore(rest).length + 1 : 0);
    if (kept.length >= maxLines) break;
    if (line.length > room) {
      // The first line alone too long: shown cut rather than not at all.
      if (kept.length === 0 && room > 1) kept.push(cutMrkdwn(line, room));
      else break;
    } else kept.push(line);
    length += (kept.at(-1) ?? '').length + 1;
  }
  const hidden = lines.length - kept.length;
  return hidden > 0 ? [...kept, andMore(hidden)].join('\n') : kept.join('\n');
}

/**
 * Items of an inline list ("a, b, c"), at most `maxItems`, then "and N more"; for lists inside a
 * sentence (the channels of a connection in use).
 */
export function summariseInline(items: readonly string[], maxItems: number): string {
  if (items.length <= maxItems) return items.join(', ');
  return `${items.slice(0, maxItems).join(', ')} and ${items.length - maxItems} more`;
}

/**
 * mrkdwn text in pieces of at most `max` characters, split at line ends (a paragraph break
 * first); a line longer than `max` is cut. Each piece can be its own section.
 */
export function splitMrkdwn(text: string, max: number = MRKDWN_MAX_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const fitted = line.length > max ? cutMrkdwn(line, max) : line;
    const joined = current === '' ? fitted : `${current}\n${fitted}`;
    if (joined.length <= max) {
      current = joined;
      continue;
    }
    if (current.trim() !== '') pieces.push(current.trimEnd());
    current = fitted;
  }
  if (current.trim() !== '') pieces.push(current.trimEnd());
  return pieces;
}
