/** `/agent` replies as sections (https://docs.slack.dev/reference/block-kit/blocks/section-block). */
import { andMore, cutMrkdwn, escapedText, escapeSlackText, splitMrkdwn } from './mrkdwn.js';
import { neutraliseSlackControls } from './neutralise.js';
import { truncate } from './text-cut.js';

type SectionBlock = { type: 'section'; text: { type: 'mrkdwn'; text: string } };

/** A reply: `text` is the notification and screen-reader text, `blocks` what people see. */
export type CommandReply = { text: string; blocks: SectionBlock[] };

/** A module's replies, one per outcome kind (slack/views/commands/); a lone string is `reply(string)`. */
export type Replies<O extends { kind: string }> = {
  [K in O['kind']]: (outcome: O & { kind: K }) => CommandReply | string;
};

/** Section text limit is 3,000; a margin keeps the code fences added around table chunks inside it. */
export const SECTION_MAX_CHARS = 2_900;
/** Slack allows 50 blocks per message; the fallback text stays well under 4,000. */
const MAX_BLOCKS = 50;
const TEXT_MAX_CHARS = 3_000;

/** Untrusted text as a reader will see it: on one line, no pings, shortened. Not yet escaped. */
export const flatText = (text: string, max = 200): string =>
  truncate(neutraliseSlackControls(text).replace(/\s+/g, ' ').trim(), max);

/** Only the characters mrkdwn reserves escaped (`&`, `<`, `>`): for our own text, placeholders included. */
export const reserved = escapeSlackText;

/** Text from the service or a person inside our mrkdwn: on one line, no pings, escaped, then cut. */
export const escapeMrkdwn = (text: string, max = 200): string =>
  escapedText(neutraliseSlackControls(text).replace(/\s+/g, ' ').trim(), max);

/** Untrusted text inside backticks: no pings, no backtick (it would end the span), escaped, cut. */
export const codeText = (text: string, max: number) =>
  escapedText(neutraliseSlackControls(text).replace(/`/g, "'"), max);

const section = (text: string): SectionBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

/** Paragraphs (mrkdwn) → sections, a long one split at line ends; past 50 blocks the rest is counted. */
export function reply(...paragraphs: string[]): CommandReply {
  const kept = paragraphs.filter((p) => p !== '');
  const pieces = kept.flatMap((paragraph) => splitMrkdwn(paragraph, SECTION_MAX_CHARS));
  const shown =
    pieces.length <= MAX_BLOCKS
      ? pieces
      : [
          ...pieces.slice(0, MAX_BLOCKS - 1),
          `_${andMore(pieces.length - MAX_BLOCKS + 1)} sections, too long for one message_`,
        ];
  return { text: cutMrkdwn(kept.join('\n\n'), TEXT_MAX_CHARS), blocks: shown.map(section) };
}

/** A capacity in GB, without float noise. */
export const gb = (value: number) => `${Number(value.toFixed(6))} GB`;

/** Said after every refusal: the refusal came before any write. */
export const NOTHING_CHANGED = 'Nothing was changed.';
