/**
 * An agent answer (untrusted Markdown) as neutralised `markdown` blocks with fallbacks, and past a
 * size as a file (https://docs.slack.dev/reference/block-kit/blocks/markdown-block).
 */
import type { ContextBlock, MarkdownBlock, MessageMetadata, TaskCardBlock } from '@slack/types';
import { feedbackButtonsBlock } from './feedback.js';
import { escapeSlackText } from './mrkdwn.js';
import { neutraliseAgentMarkdown } from './neutralise.js';
import { FALLBACK_MAX_CHARS, fallbackText } from './plain-text.js';
import type { ReceiptView } from './receipt.js';
import { splitMarkdown } from './split-markdown.js';

/** One `chat.postMessage` worth of answer. */
export interface AnswerMessage {
  /** Plain-text fallback (`&`, `<`, `>` escaped), at most 3,000 characters. */
  text: string;
  /** A `markdown` block, then on the last message the footer; empty in the plain rendering. */
  blocks: [] | [MarkdownBlock, ...ContextBlock[]];
  /** The native 👍 / 👎 buttons, on the last part only; posted after `blocks`. */
  feedback?: ReturnType<typeof feedbackButtonsBlock>;
  /** The receipt (a `task_card`), on the first part only; posted before `blocks`. */
  receipt?: TaskCardBlock;
  /** The caller's metadata plus `part` (1-based) and `parts`: what was posted can be checked. */
  metadata?: MessageMetadata;
}

export interface RenderedAnswer {
  messages: AnswerMessage[];
  /** Past the threshold, the answer as the agent wrote it (raw: a file shows addresses, not labels). */
  file?: { filename: string; title: string; content: string };
}

export interface RenderAnswerOptions {
  /** Default 11,000: Slack allows 12,000 across a message's `markdown` blocks (link above). */
  maxMarkdownChars?: number;
  /** Past this many characters the answer is also returned as a file. Default 20,000. */
  fileThresholdChars?: number;
  /** Attached to every message (with the part number added). */
  metadata?: MessageMetadata;
  /** Footer lines (trusted mrkdwn), shown small under the last message. */
  footer?: readonly string[];
  /** End the last message with native 👍 / 👎 buttons (only the last: one rating per answer). */
  feedbackButtons?: boolean;
  /** The turn the answer belongs to, carried in the buttons' values (see feedbackButtonsBlock). */
  feedbackTurnId?: string;
  /** A line (Markdown, ours, trusted, under 500 characters) above the first part, e.g. "Late answer". */
  note?: string;
  /** Its card is the first part's first block; its words begin that part's `text` (same 3,000). */
  receipt?: ReceiptView;
}

/** Plain-text parts stay under Slack's advice of 4,000 characters of `text` per message. */
const PLAIN_PART_CHARS = 3_900;

/** Shown when the agent finished without a word; an empty `markdown` block is rejected by Slack. */
const EMPTY_ANSWER = '_The agent finished without an answer._';

/** An answer in as many messages as it needs, marked "(part i/n)" when there are several. */
export function renderAnswer(markdown: string, options: RenderAnswerOptions = {}): RenderedAnswer {
  const { maxMarkdownChars = 11_000, note } = options;
  const parts = answerParts(markdown, maxMarkdownChars);
  const messages = parts.map((part, index): AnswerMessage => {
    const marker = parts.length > 1 ? `(part ${index + 1}/${parts.length})` : undefined;
    const last = index === parts.length - 1;
    // The note fits in the room Slack leaves above maxMarkdownChars (12,000 per message).
    const lead = note && index === 0 ? `${note}\n\n` : '';
    const blocks: [MarkdownBlock, ...ContextBlock[]] = [
      { type: 'markdown', text: `${lead}${part.prefix}${part.body}${part.suffix}` },
    ];
    const footer = options.footer ?? [];
    if (footer.length > 0 && last)
      blocks.push({ type: 'context', elements: footer.map((text) => ({ type: 'mrkdwn' as const, text })) });
    const receipt = index === 0 ? options.receipt : undefined;
    const room = FALLBACK_MAX_CHARS - (receipt ? receipt.text.length + 2 : 0);
    const fallback = fallbackText(`${lead}${part.body}`, marker, room);
    const message: AnswerMessage = receipt
      ? { text: `${receipt.text}\n\n${fallback}`, blocks, receipt: receipt.block }
      : { text: fallback, blocks };
    if (options.feedbackButtons && last) message.feedback = feedbackButtonsBlock(options.feedbackTurnId);
    return message;
  });
  return finish(messages, markdown, options);
}

/** No blocks, for when Slack refused the rich rendering (`invalid_blocks`, `msg_too_long`…). */
export function renderPlainAnswer(markdown: string, options: RenderAnswerOptions = {}): RenderedAnswer {
  // The receipt's words lead the first part, like the note (the plain rendering has no card).
  const note = [options.receipt?.text, options.note].filter(Boolean).join('\n\n') || undefined;
  const footer = (options.footer ?? []).join('\n');
  const room = PLAIN_PART_CHARS - (note ? note.length + 2 : 0) - (footer ? footer.length + 2 : 0);
  const parts = answerParts(markdown, room);
  const messages = parts.map((part, index): AnswerMessage => {
    // Slack parses `text` as mrkdwn: the agent's `&`, `<`, `>` are escaped; our note and footer are not.
    const body = escapeSlackText(`${part.prefix}${part.body}${part.suffix}`);
    const lead = note && index === 0 ? `${note}\n\n` : '';
    const tail = footer && index === parts.length - 1 ? `\n\n${footer}` : '';
    return { text: `${lead}${body}${tail}`, blocks: [] };
  });
  return finish(messages, markdown, options);
}

function answerParts(markdown: string, maxChars: number) {
  // Neutralised before the split: a link's host sits inside its label, so no cut separates them.
  const answer = neutraliseAgentMarkdown(markdown).trim() || EMPTY_ANSWER;
  // A part of only whitespace (a huge run of blank lines) shows nothing, and Slack refuses it.
  return splitMarkdown(answer, maxChars).filter((part) => /\S/.test(part.body));
}

/** The caller's metadata on each message, plus `part` and `parts`; past the threshold, the file. */
function finish(messages: AnswerMessage[], markdown: string, options: RenderAnswerOptions): RenderedAnswer {
  const { metadata, fileThresholdChars = 20_000 } = options;
  const tagged = messages.map((message, index): AnswerMessage => {
    if (!metadata) return message;
    const event_payload = { ...metadata.event_payload, part: index + 1, parts: messages.length };
    return { ...message, metadata: { event_type: metadata.event_type, event_payload } };
  });
  if (markdown.length <= fileThresholdChars) return { messages: tagged };
  return { messages: tagged, file: { filename: 'answer.md', title: 'Full answer', content: markdown } };
}
