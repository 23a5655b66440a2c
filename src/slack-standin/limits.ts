import { taskCardProblem } from './task-card-rules.js';
import type { Block, MessageMetadata, SlackResult } from './types.js';

/**
 * Slack's message limits, enforced with the error names Slack answers with.
 * https://docs.slack.dev/reference/methods/chat.postMessage (errors, "Truncating content")
 * https://docs.slack.dev/reference/block-kit/blocks (per-block limits)
 */
export const SLACK_LIMITS = {
  /** `text` longer than this → msg_too_long. */
  textChars: 40_000,
  /** More blocks than this → invalid_blocks. */
  blocksPerMessage: 50,
  /** A section block's `text.text` longer than this → invalid_blocks. */
  sectionTextChars: 3_000,
  /** A section field's text longer than this → invalid_blocks. */
  sectionFieldChars: 2_000,
  /** More section fields than this → invalid_blocks. */
  sectionFields: 10,
  /** A header block's text longer than this → invalid_blocks. */
  headerTextChars: 150,
  /** The `text` of all `markdown` blocks in one message, summed, longer than this → invalid_blocks. */
  markdownBlockCharsPerMessage: 12_000,
  /** assistant.threads.setStatus: more loading messages than this → invalid_arguments. */
  loadingMessages: 10,
  /**
   * assistant.threads.setStatus: a longer `status` (or loading message) → invalid_arguments. Slack
   * names no number; the stand-in holds the bot to a short line, as Slack shows one.
   */
  statusChars: 150,
  /** assistant.threads.setTitle: a longer title → invalid_arguments. */
  titleChars: 255,
  /** A context_actions block holds at most this many elements. */
  contextActionsElements: 5,
  /** An accessibility label longer than this → invalid_blocks. */
  accessibilityLabelChars: 75,
  /** A button's text longer than this → invalid_blocks. */
  buttonTextChars: 75,
  /** A views.open trigger_id expires this long after the interaction that carried it. */
  triggerIdTtlMs: 3_000,
} as const;

/** Message content after parsing, or the error Slack would answer. */
export type ParsedContent =
  | { ok: true; text: string; blocks?: Block[]; metadata?: MessageMetadata }
  | { ok: false; result: SlackResult };

function invalid(error: string, message: string): { ok: false; result: SlackResult } {
  return { ok: false, result: { ok: false, error, response_metadata: { messages: [`[ERROR] ${message}`] } } };
}

/** Form bodies carry JSON as strings; JSON bodies carry it as values. */
export function parseJsonArg(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== 'string') return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

function textOf(value: unknown): string {
  if (value && typeof value === 'object' && typeof (value as { text?: unknown }).text === 'string') {
    return (value as { text: string }).text;
  }
  return '';
}

/** The first rule one block breaks, as a Slack error message with a json-pointer, or undefined. */
function blockProblem(block: Block, i: number): string | undefined {
  const at = `[json-pointer:/blocks/${i}`;
  if (block.type === 'section') {
    if (textOf(block.text).length > SLACK_LIMITS.sectionTextChars) {
      return `must be less than ${SLACK_LIMITS.sectionTextChars + 1} characters ${at}/text/text]`;
    }
    const fields = Array.isArray(block.fields) ? block.fields : [];
    if (fields.length > SLACK_LIMITS.sectionFields) {
      return `must provide no more than ${SLACK_LIMITS.sectionFields} items ${at}/fields]`;
    }
    const long = fields.findIndex((f) => textOf(f).length > SLACK_LIMITS.sectionFieldChars);
    if (long >= 0)
      return `must be less than ${SLACK_LIMITS.sectionFieldChars + 1} characters ${at}/fields/${long}/text]`;
    if (block.text === undefined && fields.length === 0) return `must provide text or fields ${at}]`;
  }
  if (block.type === 'header' && textOf(block.text).length > SLACK_LIMITS.headerTextChars) {
    return `must be less than ${SLACK_LIMITS.headerTextChars + 1} characters ${at}/text/text]`;
  }
  if (block.type === 'markdown' && typeof block.text !== 'string') {
    return `must provide a string ${at}/text]`;
  }
  if (block.type === 'context_actions') return contextActionsProblem(block, at);
  if (block.type === 'task_card') return taskCardProblem(block, at);
  return undefined;
}

/**
 * A `context_actions` block: 1–5 elements, each `feedback_buttons` (both buttons with plain_text
 * text and a value, labels ≤ 75) or `icon_button`.
 * https://docs.slack.dev/reference/block-kit/blocks/context-actions-block
 */
function contextActionsProblem(block: Block, at: string): string | undefined {
  const elements = Array.isArray(block.elements) ? (block.elements as Block[]) : [];
  if (elements.length === 0) return `must provide at least 1 item ${at}/elements]`;
  if (elements.length > SLACK_LIMITS.contextActionsElements) {
    return `must provide no more than ${SLACK_LIMITS.contextActionsElements} items ${at}/elements]`;
  }
  for (const [j, element] of elements.entries()) {
    const where = `${at}/elements/${j}`;
    if (element?.type === 'icon_button') continue;
    if (element?.type !== 'feedback_buttons') return `must be a valid enum value ${where}/type]`;
    for (const side of ['positive_button', 'negative_button'] as const) {
      const button = element[side] as
        | { text?: { type?: string; text?: string }; value?: unknown; accessibility_label?: unknown }
        | undefined;
      if (!button) return `missing required field: ${side} ${where}]`;
      if (button.text?.type !== 'plain_text' || !button.text.text) {
        return `must provide a plain_text text object ${where}/${side}/text]`;
      }
      if (button.text.text.length > SLACK_LIMITS.buttonTextChars) {
        return `must be less than ${SLACK_LIMITS.buttonTextChars + 1} characters ${where}/${side}/text/text]`;
      }
      if (typeof button.value !== 'string' || button.value === '') {
        return `missing required field: value ${where}/${side}]`;
      }
      const label = button.accessibility_label;
      if (
        label !== undefined &&
        (typeof label !== 'string' || label.length > SLACK_LIMITS.accessibilityLabelChars)
      ) {
        return `must be less than ${SLACK_LIMITS.accessibilityLabelChars + 1} characters ${where}/${side}/accessibility_label]`;
      }
    }
  }
  return undefined;
}

export function validateBlocks(
  raw: unknown,
): { ok: true; blocks?: Block[] } | { ok: false; result: SlackResult } {
  if (raw === undefined || raw === null || raw === '') return { ok: true };
  const parsed = parseJsonArg(raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) {
    return invalid('invalid_blocks_format', 'blocks must be a JSON array');
  }
  const blocks = parsed.value as unknown[];
  if (blocks.length > SLACK_LIMITS.blocksPerMessage) {
    return invalid(
      'invalid_blocks',
      `must provide no more than ${SLACK_LIMITS.blocksPerMessage} items [json-pointer:/blocks]`,
    );
  }
  let markdownChars = 0;
  for (const [i, block] of blocks.entries()) {
    if (!block || typeof block !== 'object' || typeof (block as Block).type !== 'string') {
      return invalid('invalid_blocks', `missing required field: type [json-pointer:/blocks/${i}]`);
    }
    const problem = blockProblem(block as Block, i);
    if (problem) return invalid('invalid_blocks', problem);
    if ((block as Block).type === 'markdown') markdownChars += textOf(block).length;
  }
  if (markdownChars > SLACK_LIMITS.markdownBlockCharsPerMessage) {
    return invalid(
      'invalid_blocks',
      `the cumulative length of text in markdown blocks must be less than ${SLACK_LIMITS.markdownBlockCharsPerMessage + 1} characters [json-pointer:/blocks]`,
    );
  }
  return { ok: true, blocks: blocks as Block[] };
}

function validateMetadata(
  raw: unknown,
): { ok: true; metadata?: MessageMetadata } | { ok: false; result: SlackResult } {
  if (raw === undefined || raw === null || raw === '') return { ok: true };
  const parsed = parseJsonArg(raw);
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') {
    return { ok: false, result: { ok: false, error: 'invalid_metadata_format' } };
  }
  const m = parsed.value as Partial<MessageMetadata>;
  if (typeof m.event_type !== 'string' || !m.event_payload || typeof m.event_payload !== 'object') {
    return { ok: false, result: { ok: false, error: 'invalid_metadata_schema' } };
  }
  return { ok: true, metadata: { event_type: m.event_type, event_payload: m.event_payload } };
}

/**
 * Parses and checks `text`, `blocks` and `metadata` of chat.postMessage / chat.update /
 * chat.postEphemeral the way Slack does. `requireContent` is false for chat.update, where
 * text and blocks may be left out (Slack keeps the old ones).
 */
export function parseMessageContent(args: Record<string, unknown>, requireContent = true): ParsedContent {
  const text = typeof args.text === 'string' ? args.text : args.text === undefined ? '' : String(args.text);
  if (text.length > SLACK_LIMITS.textChars)
    return { ok: false, result: { ok: false, error: 'msg_too_long' } };
  const blocks = validateBlocks(args.blocks);
  if (!blocks.ok) return blocks;
  const metadata = validateMetadata(args.metadata);
  if (!metadata.ok) return metadata;
  const hasBlocks = (blocks.blocks?.length ?? 0) > 0;
  if (requireContent && text.trim() === '' && !hasBlocks && args.attachments === undefined) {
    return { ok: false, result: { ok: false, error: 'no_text' } };
  }
  return {
    ok: true,
    text,
    ...(blocks.blocks ? { blocks: blocks.blocks } : {}),
    ...(metadata.metadata ? { metadata: metadata.metadata } : {}),
  };
}
