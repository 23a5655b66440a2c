import {
  type SlashCommandInput,
  slashCommandFields,
} from '../../src/sandbox/slack-standin/event-builders.js';
import { nextSlackTs } from '../../src/sandbox/slack-standin/index.js';
import { signSlackRequest } from '../../src/sandbox/slack-standin/signing.js';

/**
 * What Slack sends an app over HTTP, for end-to-end tests: signed events (with retries), slash
 * commands and interactions. The event builders and the signer live beside the Slack stand-in (the
 * local sandbox uses them too) and are re-exported here. Defaults match the stand-in's workspace.
 */

/** The next realistic message ts; shares the stand-in's clock, so it never collides with a bot message. */
export const nextTs: () => string = nextSlackTs;

/** What the app answered. `body` is the raw text. */
export interface SlackPostResult {
  status: number;
  body: string;
  /** Round-trip time in milliseconds (Slack gives up after 3,000). */
  ms: number;
}

async function postSigned(
  appUrl: string,
  signingSecret: string,
  body: string,
  extraHeaders: Record<string, string> = {},
): Promise<SlackPostResult> {
  const started = performance.now();
  const response = await fetch(`${appUrl.replace(/\/$/, '')}/slack/events`, {
    method: 'POST',
    headers: { ...signSlackRequest(signingSecret, body), ...extraHeaders },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: performance.now() - started };
}

/** Options for a (re)delivery of an event. */
export interface DeliveryOptions {
  /** Sets X-Slack-Retry-Num (Slack's retries are 1..3). */
  retryNum?: number;
  /** Sets X-Slack-Retry-Reason, e.g. 'http_timeout'. */
  retryReason?: string;
}

/** POSTs an event_callback body to `${appUrl}/slack/events`, signed, as Slack delivers it. */
export function postEvent(
  appUrl: string,
  signingSecret: string,
  eventCallbackBody: object,
  options: DeliveryOptions = {},
): Promise<SlackPostResult> {
  const headers: Record<string, string> = {};
  if (options.retryNum !== undefined) headers['x-slack-retry-num'] = String(options.retryNum);
  if (options.retryReason !== undefined) headers['x-slack-retry-reason'] = options.retryReason;
  return postSigned(appUrl, signingSecret, JSON.stringify(eventCallbackBody), headers);
}

/** POSTs a slash command to `${appUrl}/slack/events`, form-encoded and signed like Slack. */
export function postSlashCommand(
  appUrl: string,
  signingSecret: string,
  input: SlashCommandInput = {},
): Promise<SlackPostResult> {
  return postSigned(appUrl, signingSecret, new URLSearchParams(slashCommandFields(input)).toString());
}

/** POSTs an interaction (`block_actions`, `view_submission`, …) as Slack does: form field `payload=<json>`. */
export function postInteraction(
  appUrl: string,
  signingSecret: string,
  payload: object,
): Promise<SlackPostResult> {
  return postSigned(
    appUrl,
    signingSecret,
    new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
  );
}

export type {
  AppMentionEventInput,
  BuiltMessageEvent,
  BuiltReactionEvent,
  EventCallbackOptions,
  MessageEventInput,
  ReactionAddedEventInput,
  SlashCommandInput,
} from '../../src/sandbox/slack-standin/event-builders.js';
export {
  appMentionEvent,
  channelTypeOf,
  eventCallback,
  messageEvent,
  reactionAddedEvent,
  slashCommandFields,
} from '../../src/sandbox/slack-standin/event-builders.js';
export type { SlackSignatureHeaders } from '../../src/sandbox/slack-standin/signing.js';
export { signSlackRequest };
