import { actionIdsOf, BLOCK_LIMITS, blockProblem } from './block-rules.js';
import { CONTEXT_ACTIONS_LIMITS } from './context-actions-rules.js';
import { mrkdwnTextProblem } from './text-rules.js';
import type { Block, MessageMetadata, SlackResult } from './types.js';

/**
 * Slack's message limits, enforced with the error names Slack answers with.
 * https://docs.slack.dev/reference/methods/chat.postMessage (errors, "Truncating content")
 * https://docs.slack.dev/reference/block-kit/blocks (per-block limits)
 */
export const SLACK_LIMITS = {
  /** `text` longer than this → msg_too_long. */
  textChars: 40_000,
  /** More blocks than this in a message → invalid_blocks. */
  blocksPerMessage: 50,
  /** More blocks than this in a modal or a Home tab → invalid_arguments. */
  blocksPerView: 100,
  /** A section block's `text.text` longer than this → invalid_blocks. */
  sectionTextChars: BLOCK_LIMITS.sectionTextChars,
  /** A section field's text longer than this → invalid_blocks. */
  sectionFieldChars: BLOCK_LIMITS.sectionFieldChars,
  /** More section fields than this → invalid_blocks. */
  sectionFields: BLOCK_LIMITS.sectionFields,
  /** A header block's text longer than this → invalid_blocks. */
  headerTextChars: BLOCK_LIMITS.headerTextChars,
  /** More elements than this in a context block → invalid_blocks. */
  contextElements: BLOCK_LIMITS.contextElements,
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
  contextActionsElements: CONTEXT_ACTIONS_LIMITS.elements,
  /** An accessibility label longer than this → invalid_blocks. */
  accessibilityLabelChars: CONTEXT_ACTIONS_LIMITS.accessibilityLabelChars,
  /** A button's text longer than this → invalid_blocks. */
  buttonTextChars: BLOCK_LIMITS.buttonTextChars,
  /** A views.open trigger_id expires this long after the interaction that carried it. */
  triggerIdTtlMs: 3_000,
} as const;

/** Message content after parsing, or the error Slack would answer. */
export type ParsedContent =
  | { ok: true; text: string; blocks?: Block[]; metadata?: MessageMetadata }
  | { ok: false; result: SlackResult };

/** Slack's refusal: the error, and what broke under `response_metadata` (and `errors` for blocks). */
export function invalid(error: string, message: string): { ok: false; result: SlackResult } {
  const messages = { response_metadata: { messages: [`[ERROR] ${message}`] } };
  return {
    ok: false,
    result: { ok: false, error, ...(error === 'invalid_blocks' ? { errors: [message] } : {}), ...messages },
  };
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

/** Where a block list sits and how many blocks it may hold: a message's or a view's. */
export interface BlockListRule {
  /** json-pointer of the list: '/blocks' in a message, '/view/blocks' in a view. */
  at: string;
  maxBlocks: number;
  /** The error a broken rule answers: invalid_blocks (chat.*), invalid_arguments (views.*). */
  error: string;
}

const MESSAGE_BLOCKS: BlockListRule = {
  at: '/blocks',
  maxBlocks: SLACK_LIMITS.blocksPerMessage,
  error: 'invalid_blocks',
};

/**
 * The rules of a list of blocks, beyond each block's own: how many, block_ids unique in the list
 * and action_ids unique in their block (https://docs.slack.dev/reference/block-kit/blocks:
 * "block_id … should be unique for each message"), `markdown` blocks ≤ 12,000 characters in all.
 */
function blockListProblem(blocks: unknown[], rule: BlockListRule): string | undefined {
  if (blocks.length > rule.maxBlocks) {
    return `must provide no more than ${rule.maxBlocks} items [json-pointer:${rule.at}]`;
  }
  const blockIds = new Set<string>();
  let markdownChars = 0;
  for (const [i, block] of blocks.entries()) {
    const at = `${rule.at}/${i}`;
    if (!block || typeof block !== 'object' || typeof (block as Block).type !== 'string') {
      return `missing required field: type [json-pointer:${at}]`;
    }
    const problem = blockProblem(block as Block, at);
    if (problem) return problem;
    const { block_id: blockId, type, text } = block as Block;
    if (typeof blockId === 'string') {
      if (blockIds.has(blockId)) return `duplicate block_id ${blockId} [json-pointer:${at}/block_id]`;
      blockIds.add(blockId);
    }
    const actionIds = actionIdsOf(block as Block);
    const repeated = actionIds.find((id, j) => actionIds.indexOf(id) !== j);
    if (repeated) return `duplicate action_id ${repeated} [json-pointer:${at}]`;
    if (type === 'markdown' && typeof text === 'string') markdownChars += text.length;
  }
  if (markdownChars > SLACK_LIMITS.markdownBlockCharsPerMessage) {
    return `the cumulative length of text in markdown blocks must be less than ${SLACK_LIMITS.markdownBlockCharsPerMessage + 1} characters [json-pointer:${rule.at}]`;
  }
  return undefined;
}

/** A `blocks` argument (JSON text or value) checked as `rule` says (a message's by default). */
export function validateBlocks(
  raw: unknown,
  rule: BlockListRule = MESSAGE_BLOCKS,
): { ok: true; blocks?: Block[] } | { ok: false; result: SlackResult } {
  if (raw === undefined || raw === null || raw === '') return { ok: true };
  const parsed = parseJsonArg(raw);
  if (!parsed.ok || !Array.isArray(parsed.value)) {
    return invalid('invalid_blocks_format', 'blocks must be a JSON array');
  }
  const problem = blockListProblem(parsed.value, rule);
  return problem ? invalid(rule.error, problem) : { ok: true, blocks: parsed.value as Block[] };
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
  // `text` is mrkdwn too unless the message says `mrkdwn: false`.
  const escaping =
    args.mrkdwn === false || args.mrkdwn === 'false' ? undefined : mrkdwnTextProblem(text, '/text');
  if (escaping) return invalid('invalid_arguments', escaping);
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
