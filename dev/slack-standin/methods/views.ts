import { randomUUID } from 'node:crypto';
import { SLACK_LIMITS } from '../limits.js';
import type { StandinState } from '../state.js';
import type { SlackResult } from '../types.js';
import { validateView } from '../view-rules.js';
import { type MethodHandler, str } from './context.js';

const newViewId = () => `V${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;

/**
 * views.publish: a `home` view for `user_id` (https://docs.slack.dev/reference/methods/views.publish),
 * checked by view-rules.ts. What each person's Home tab shows is kept.
 */
export const publish: MethodHandler = (args, { state }) => {
  const userId = str(args.user_id);
  if (!userId) return { ok: false, error: 'invalid_arguments' };
  const checked = validateView(args.view, ['home']);
  if (!checked.ok) return checked.result;
  const { view } = checked;
  const before = state.homes.get(userId);
  state.homes.set(userId, { view, publishes: (before?.publishes ?? 0) + 1, at: Date.now() });
  state.touch();
  const id = newViewId();
  return { ok: true, view: { id, team_id: state.identity.teamId, ...view, hash: `${Date.now()}.${id}` } };
};

/** A trigger_id the stand-in issued for an interaction less than 3 s ago, used once; else Slack's error. */
function triggerProblem(state: StandinState, triggerId: string | undefined): SlackResult | undefined {
  if (!triggerId) return { ok: false, error: 'invalid_arguments' };
  const issuedAt = state.triggers.get(triggerId);
  if (issuedAt === undefined) return { ok: false, error: 'invalid_trigger_id' };
  state.triggers.delete(triggerId);
  if (Date.now() - issuedAt > SLACK_LIMITS.triggerIdTtlMs) return { ok: false, error: 'expired_trigger_id' };
  return undefined;
}

/** A modal shown on top (views.open, views.push): stored for the test to fill in and submit. */
function showModal(state: StandinState, args: Record<string, unknown>): SlackResult {
  const triggerId = str(args.trigger_id);
  const refused = triggerProblem(state, triggerId);
  if (refused) return refused;
  const checked = validateView(args.view, ['modal']);
  if (!checked.ok) return checked.result;
  const id = newViewId();
  state.views.push({ id, trigger_id: triggerId ?? '', view: checked.view, at: Date.now() });
  state.touch();
  return { ok: true, view: { id, ...checked.view } };
}

/** views.open: https://docs.slack.dev/reference/methods/views.open */
export const open: MethodHandler = (args, { state }) => showModal(state, args);

/** views.push: another modal on the stack (https://docs.slack.dev/reference/methods/views.push). */
export const push: MethodHandler = (args, { state }) => showModal(state, args);

/**
 * views.update: replaces an open modal, found by `view_id` or `external_id`
 * (https://docs.slack.dev/reference/methods/views.update); `not_found` for one it does not know.
 */
export const update: MethodHandler = (args, { state }) => {
  const viewId = str(args.view_id);
  const externalId = str(args.external_id);
  if (!viewId && !externalId) return { ok: false, error: 'invalid_arguments' };
  const shown = state.views.find((stored) =>
    viewId ? stored.id === viewId : stored.view.external_id === externalId,
  );
  if (!shown) return { ok: false, error: 'not_found' };
  const checked = validateView(args.view, ['modal']);
  if (!checked.ok) return checked.result;
  shown.view = checked.view;
  state.touch();
  return { ok: true, view: { id: shown.id, ...checked.view } };
};
