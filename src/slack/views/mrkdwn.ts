/** mrkdwn within Slack's limits: escaped *before* it is cut, never cut inside an escape or a sequence. */
import { truncate } from './text-cut.js';

/** `&`, `<` and `>` escaped, as https://docs.slack.dev/messaging/formatting-message-text#escaping asks. */
export const escapeSlackText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

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
export const cutMrkdwn = (text: string, max: number, ellipsis = '…'): string =>
  truncate(text, max, ellipsis, atomBoundary);

/** Untrusted or literal text as mrkdwn: escaped, then cut to `max`. */
export const escapedText = (text: string, max: number = MRKDWN_MAX_CHARS): string =>
  cutMrkdwn(escapeSlackText(text), max);

/** "…and N more": the line a summarised list ends with. */
export const andMore = (count: number) => `…and ${count} more`;

/** Lines (mrkdwn) joined within `max` characters and `maxLines` lines, then "…and N more". */
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

/** An inline list ("a, b, c") of at most `maxItems`, then "and N more". */
export function summariseInline(items: readonly string[], maxItems: number): string {
  if (items.length <= maxItems) return items.join(', ');
  return `${items.slice(0, maxItems).join(', ')} and ${items.length - maxItems} more`;
}

/** mrkdwn text in pieces (sections) of at most `max` characters, split at line ends; long lines cut. */
export function splitMrkdwn(text: string, max: number = MRKDWN_MAX_CHARS): string[] {
  if (text.length <= max) return [text];
  const pieces: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    const fitted = line.length > max ? cutMrkdwn(line, max) : line;
    const joined = current === '' ? fitted : `${current}\n${fitted}`;
    const fits = joined.length <= max;
    if (!fits && current.trim() !== '') pieces.push(current.trimEnd());
    current = fits ? joined : fitted;
  }
  if (current.trim() !== '') pieces.push(current.trimEnd());
  return pieces;
}
