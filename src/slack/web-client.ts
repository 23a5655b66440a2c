import type { FetchFunction, RetryOptions, Logger as SlackLogger, WebClientOptions } from '@slack/web-api';
import { WebClient } from '@slack/web-api';
import { Agent, type RequestInit as UndiciRequestInit, fetch as undiciFetch } from 'undici';
import type { Config } from '../config/load-config.js';
import { toSlackLogger } from '../logging.js';
import type { Logger } from '../runtime/logger.js';

/** Client-side bound of one Web API call: the pool's wait for the headers, and between body chunks. */
const CALL_TIMEOUT_MS = 30_000;

/** Connections to the Slack API at most; the progress throttle keeps to a quarter (progress-throttle.ts). */
const SLACK_CONNECTIONS = 64;

/**
 * Network failures and 5xx: 5 more tries, 250 ms doubling to 10 s, randomised (p-retry's options):
 * a Slack hiccup is ridden out within ~8–16 s, then the caller decides (DESIGN: Slack platform facts).
 */
export const SLACK_RETRY_POLICY: RetryOptions = {
  retries: 5,
  factor: 2,
  minTimeout: 250,
  maxTimeout: 10_000,
  randomize: true,
};

/**
 * One keep-alive pool per configuration, shared by the bot's clients and Bolt's. web-api 8 takes a
 * `fetch` (no `agent`): undici's, with an undici `Agent`. Node 20's global fetch costs about a third
 * more CPU per call (bench/README.md) but alone recognises Node's FormData, so multipart uploads go
 * through it (same pool). The pool's timeouts bound each call without a timer per call.
 */
const fetchByConfig = new WeakMap<Config, FetchFunction>();

function keepAliveFetch(config: Config): FetchFunction {
  let fetch = fetchByConfig.get(config);
  if (fetch === undefined) {
    const dispatcher = new Agent({
      connections: SLACK_CONNECTIONS,
      headersTimeout: CALL_TIMEOUT_MS,
      bodyTimeout: CALL_TIMEOUT_MS,
    });
    fetch = (url, init) =>
      init?.body instanceof FormData
        ? // Node's fetch takes any undici dispatcher; its types come from its own bundled copy of undici.
          globalThis.fetch(url, { ...init, dispatcher } as unknown as RequestInit)
        : // The Web client sends a url-encoded string here: undici's fetch reads it as Node's would.
          (undiciFetch(url, { ...init, dispatcher } as UndiciRequestInit) as unknown as Promise<Response>);
    fetchByConfig.set(config, fetch);
  }
  return fetch;
}

/**
 * One set of options for every Web client: it waits out a 429's Retry-After and retries by
 * `retryConfig`, so we add no retry loop (DESIGN: Slack platform facts).
 */
export function webClientOptions(config: Config, logger: SlackLogger): WebClientOptions {
  return {
    slackApiUrl: config.slack.apiUrl,
    logger,
    retryConfig: SLACK_RETRY_POLICY,
    rejectRateLimitedCalls: false,
    fetch: keepAliveFetch(config),
    // No per-call timer: the pool's headersTimeout and bodyTimeout bound every call (above).
    timeout: 0,
  };
}

/** The Web client the bot posts with (Bolt's App builds its own for listeners from the same options). */
export function createWebClient(config: Config, logger: Logger, overrides: WebClientOptions = {}): WebClient {
  return new WebClient(config.slack.botToken, {
    ...webClientOptions(config, toSlackLogger(logger)),
    ...overrides,
  });
}

/** For reads a turn can do without (thread context, names): a 429 or a slow Slack fails them at once. */
export const FAIL_FAST_OPTIONS = {
  rejectRateLimitedCalls: true,
  retryConfig: { retries: 0 },
  timeout: 10_000,
} satisfies WebClientOptions;

export function createFailFastWebClient(config: Config, logger: Logger): WebClient {
  return createWebClient(config, logger, FAIL_FAST_OPTIONS);
}

/** The bot's DM channel with `user` (`conversations.open`). */
export async function openDm(client: WebClient, user: string): Promise<string> {
  const channel = (await client.conversations.open({ users: user })).channel?.id;
  if (!channel) throw new Error('conversations.open returned no channel');
  return channel;
}

export function postedTs(posted: { ts?: string }): string {
  if (!posted.ts) throw new Error('chat.postMessage returned no ts');
  return posted.ts;
}
