import { invalid, parseJsonArg, SLACK_LIMITS, validateBlocks } from './limits.js';
import { stringProblem, textObjectProblem } from './text-rules.js';
import type { Block, SlackResult } from './types.js';

/**
 * A view as views.open / views.update / views.push / views.publish and a `response_action` take it
 * (https://docs.slack.dev/reference/views): `modal` (title, submit and close ≤ 24 characters,
 * plain_text) or `home`, ≤ 100 blocks, each as strict as in a message, `callback_id` ≤ 255,
 * `private_metadata` ≤ 3,000. A broken rule answers `invalid_arguments` with the json-pointer in
 * `response_metadata.messages`, as Slack's views methods do.
 */
export const VIEW_LIMITS = {
  blocks: SLACK_LIMITS.blocksPerView,
  titleChars: 24,
  buttonChars: 24,
  callbackIdChars: 255,
  privateMetadataChars: 3_000,
} as const;

export type ViewType = 'modal' | 'home';

export type CheckedView = { ok: true; view: Record<string, unknown> } | { ok: false; result: SlackResult };

function modalProblem(view: Record<string, unknown>): string | undefined {
  const plain = { max: VIEW_LIMITS.titleChars, plainOnly: true };
  const title = textObjectProblem(view.title, '/view/title', plain);
  if (title) return title;
  for (const button of ['submit', 'close'] as const) {
    if (view[button] === undefined || view[button] === null) continue;
    const problem = textObjectProblem(view[button], `/view/${button}`, {
      ...plain,
      max: VIEW_LIMITS.buttonChars,
    });
    if (problem) return problem;
  }
  const hasInput = Array.isArray(view.blocks) && (view.blocks as Block[]).some((b) => b?.type === 'input');
  if (hasInput && !view.submit) return 'missing required field: submit [json-pointer:/view/submit]';
  return undefined;
}

/** `raw` (JSON text or a value) checked as a view of one of `types`. */
export function validateView(raw: unknown, types: readonly ViewType[]): CheckedView {
  const parsed = parseJsonArg(raw);
  const view = parsed.ok ? parsed.value : undefined;
  if (!view || typeof view !== 'object' || Array.isArray(view)) {
    return invalid('invalid_arguments', 'must provide an object [json-pointer:/view]');
  }
  const record = view as Record<string, unknown>;
  if (!types.includes(record.type as ViewType)) {
    return invalid('invalid_arguments', 'must be a valid enum value [json-pointer:/view/type]');
  }
  // A Home tab shows its blocks; an empty one is refused (a modal may be a title and buttons only).
  if (!Array.isArray(record.blocks) || (record.type === 'home' && record.blocks.length === 0)) {
    return invalid('invalid_arguments', 'must provide at least 1 item [json-pointer:/view/blocks]');
  }
  const problem =
    (record.type === 'modal' ? modalProblem(record) : undefined) ??
    stringProblem(record.callback_id, '/view/callback_id', VIEW_LIMITS.callbackIdChars) ??
    stringProblem(record.private_metadata, '/view/private_metadata', VIEW_LIMITS.privateMetadataChars);
  if (problem) return invalid('invalid_arguments', problem);
  const blocks = validateBlocks(record.blocks, {
    at: '/view/blocks',
    maxBlocks: VIEW_LIMITS.blocks,
    error: 'invalid_arguments',
  });
  return blocks.ok ? { ok: true, view: record } : blocks;
}
