import { invalid, parseMessageContent } from './limits.js';
import type { StandinState } from './state.js';
import type { Block, SlackResult, StoredRefusal } from './types.js';
import { validateView } from './view-rules.js';

/**
 * What an app sends Slack outside the Web API, held to the same rules:
 * - a message POSTed to a `response_url`, or answered in a slash command's ack
 *   (https://docs.slack.dev/interactivity/handling-user-interaction#message_responses): a message
 *   as chat.postMessage takes it;
 * - the answer to a `view_submission` (https://docs.slack.dev/surfaces/modals#updating_response):
 *   empty, `clear`, `update` / `push` with a valid modal, or `errors` keyed by the block_ids of the
 *   submitted view's input blocks.
 * Each returns Slack's refusal (`{ok:false, error, response_metadata}`), or undefined when accepted.
 */

/** A message body for response_url or a command ack. */
export function messageBodyRefusal(body: Record<string, unknown>): SlackResult | undefined {
  // delete_original needs no content; everything else is a message.
  const parsed = parseMessageContent(body, body.delete_original !== true);
  return parsed.ok ? undefined : parsed.result;
}

/** A slash command's HTTP answer: empty, or a message (JSON) — plain text is shown as is. */
export function commandAckRefusal(body: string): SlackResult | undefined {
  if (body.trim() === '') return undefined;
  try {
    return messageBodyRefusal(JSON.parse(body) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

function inputBlockIds(view: Record<string, unknown>): Set<string> {
  const blocks = Array.isArray(view.blocks) ? (view.blocks as Block[]) : [];
  return new Set(blocks.filter((b) => b.type === 'input').map((b) => String(b.block_id)));
}

/** The app's answer (HTTP body, possibly empty) to the submission of `submitted`. */
export function responseActionRefusal(
  body: string,
  submitted: Record<string, unknown>,
): SlackResult | undefined {
  if (body.trim() === '') return undefined;
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { ok: false, error: 'invalid_json' };
  }
  switch (answer.response_action) {
    case undefined:
    case 'clear':
      return undefined;
    case 'update':
    case 'push': {
      const checked = validateView(answer.view, ['modal']);
      return checked.ok ? undefined : checked.result;
    }
    case 'errors': {
      const errors = answer.errors as Record<string, unknown> | undefined;
      const keys = errors && typeof errors === 'object' ? Object.keys(errors) : [];
      if (keys.length === 0)
        return invalid('invalid_arguments', 'must provide errors [json-pointer:/errors]').result;
      const inputs = inputBlockIds(submitted);
      const stray = keys.find((key) => !inputs.has(key) || typeof errors?.[key] !== 'string');
      return stray === undefined
        ? undefined
        : invalid('invalid_arguments', `no input block ${stray} in the view [json-pointer:/errors/${stray}]`)
            .result;
    }
    default:
      return invalid('invalid_arguments', 'must be a valid enum value [json-pointer:/response_action]')
        .result;
  }
}

/** Records a refusal where a test can see it, and returns it. */
export function recordRefusal(
  state: StandinState,
  surface: StoredRefusal['surface'],
  result: SlackResult,
  body: unknown,
): StoredRefusal {
  const metadata = result.response_metadata as { messages?: string[] } | undefined;
  const refusal = { surface, error: result.error ?? 'invalid', messages: metadata?.messages ?? [], body };
  state.refusals.push(refusal);
  state.touch();
  return refusal;
}

/** The error a person-driver throws for a refused answer: the test that caused it fails, naming why. */
export class SlackRefusedError extends Error {
  constructor(readonly refusal: StoredRefusal) {
    super(
      `Slack would refuse this ${refusal.surface} answer: ${refusal.error} ${refusal.messages.join(' ')}`,
    );
    this.name = 'SlackRefusedError';
  }
}
