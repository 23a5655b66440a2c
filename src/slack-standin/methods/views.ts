import { randomUUID } from 'node:crypto';
import { parseJsonArg, SLACK_LIMITS, validateBlocks } from '../limits.js';
import { type MethodHandler, str } from './context.js';

/**
 * views.open: a modal needs a trigger_id the stand-in issued for an interaction less than 3 s ago,
 * used once (https://docs.slack.dev/reference/methods/views.open), and a valid view.
 */
export const open: MethodHandler = (args, { state }) => {
  const triggerId = str(args.trigger_id);
  if (!triggerId) return { ok: false, error: 'invalid_arguments' };
  const issuedAt = state.triggers.get(triggerId);
  if (issuedAt === undefined) return { ok: false, error: 'invalid_trigger_id' };
  state.triggers.delete(triggerId);
  if (Date.now() - issuedAt > SLACK_LIMITS.triggerIdTtlMs) return { ok: false, error: 'expired_trigger_id' };
  const parsed = parseJsonArg(args.view);
  const view = parsed.ok ? (parsed.value as Record<string, unknown> | undefined) : undefined;
  if (!view || typeof view !== 'object' || view.type !== 'modal')
    return { ok: false, error: 'invalid_arguments' };
  const title = view.title as { type?: string; text?: string } | undefined;
  if (title?.type !== 'plain_text' || !title.text || title.text.length > 24) {
    return { ok: false, error: 'invalid_arguments' };
  }
  const blocks = validateBlocks(view.blocks);
  if (!blocks.ok) return blocks.result;
  const id = `V${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  state.views.push({ id, trigger_id: triggerId, view, at: Date.now() });
  state.touch();
  return { ok: true, view: { id, ...view } };
};
