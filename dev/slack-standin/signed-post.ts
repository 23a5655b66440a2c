import { type SlashCommandInput, slashCommandFields } from './event-builders.js';
import { signSlackRequest } from './signing.js';

/**
 * What Slack sends an app over HTTP: signed events (with retry headers), slash commands and
 * interactions, all POSTed to `${appUrl}/slack/events`. Used by the local sandbox and by the
 * end-to-end tests (re-exported from test/support/slack-events.ts), so there is one implementation.
 */

/** What the app answered. `body` is the raw text. */
export interface SlackPostResult {
  status: number;
  body: string;
  /** Round-trip time in milliseconds (Slack gives up after 3,000). */
  ms: number;
}

/** Options for a (re)delivery of an event. */
export interface DeliveryOptions {
  /** Sets X-Slack-Retry-Num (Slack's retries are 1..3). */
  retryNum?: number;
  /** Sets X-Slack-Retry-Reason, e.g. 'http_timeout'. */
  retryReason?: string;
  /** Gives up (rejects) after this long; default: no limit. */
  timeoutMs?: number;
}

async function postSigned(
  appUrl: string,
  signingSecret: string,
  body: string,
  extraHeaders: Record<string, string> = {},
  timeoutMs?: number,
): Promise<SlackPostResult> {
  const started = performance.now();
  const response = await fetch(`${appUrl.replace(/\/$/, '')}/slack/events`, {
    method: 'POST',
    headers: { ...signSlackRequest(signingSecret, body), ...extraHeaders },
    body,
    signal: timeoutMs === undefined ? null : AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  return { status: response.status, body: text, ms: performance.now() - started };
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
  return postSigned(appUrl, signingSecret, JSON.stringify(eventCallbackBody), headers, options.timeoutMs);
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
