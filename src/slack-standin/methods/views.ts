import { randomUUID } from 'node:crypto';
import { parseJsonArg, SLACK_LIMITS, validateBlocks } from '../limits.js';
import { type MethodHandler, str } from './context.js';

/** A view holds at most 100 blocks (a message 50): https://docs.slack.dev/reference/block-kit/blocks */
export const VIEW_MAX_BLOCKS = 100;

/**
 * views.publish: a `home` view for `user_id` (https://docs.slack.dev/reference/methods/views.publish),
 * at most 100 blocks, each as strict as in a message. What each person's Home tab shows is kept.
 */
export const publish: MethodHandler = (args, { state }) => {
  const userId = str(args.user_id);
  if (!userId) return { ok: false, error: 'invalid_arguments' };
  const parsed = parseJsonArg(args.view);
  const view = parsed.ok ? (parsed.value as Record<string, unknown> | undefined) : undefined;
  if (!view || typeof view !== 'object' || view.type !== 'home')
    return { ok: false, error: 'invalid_arguments' };
  const blocks = Array.isArray(view.blocks) ? view.blocks : undefined;
  if (!blocks || blocks.length === 0 || blocks.length > VIEW_MAX_BLOCKS)
    return { ok: false, error: 'invalid_arguments' };
  // The per-block rules are a message's; only the count differs (checked above).
  for (let start = 0; start < blocks.length; start += SLACK_LIMITS.blocksPerMessage) {
    const checked = validateBlocks(blocks.slice(start, start + SLACK_LIMITS.blocksPerMessage));
    if (!checked.ok) return checked.result;
  }
  const before = state.homes.get(userId);
  state.homes.set(userId, { view, publishes: (before?.publishes ?? 0) + 1, at: Date.now() });
  state.touch();
  const id = `V${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  return { ok: true, view: { id, team_id: state.identity.teamId, ...view, hash: `${Date.now()}.${id}` } };
};

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
