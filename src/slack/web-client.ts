import type { FetchFunction, RetryOptions, Logger as SlackLogger, WebClientOptions } from '@slack/web-api';
import { WebClient } from '@slack/web-api';
import { Agent } from 'undici';
import type { Config } from '../config.js';
import type { Logger } from '../runtime/logger.js';
import { toSlackLogger } from './bolt-logger.js';

/** Client-side timeout of one Web API call. */
const CALL_TIMEOUT_MS = 30_000;

/**
 * Connections kept to the Slack API at most, shared by every client of one configuration. The
 * progress throttle keeps its refreshes to a quarter of this (conversation/turn/progress-throttle.ts).
 */
const SLACK_CONNECTIONS = 64;

/**
 * Network failures and 5xx answers: 5 more tries, 250 ms doubling to at most 10 s, each delay
 * randomised up to twice as long (p-retry's options): a Slack hiccup is ridden out within ~8–16 s,
 * after which the caller decides (delivery tries a notice again later; DESIGN: Slack platform facts).
 */
export const SLACK_RETRY_POLICY: RetryOptions = {
  retries: 5,
  factor: 2,
  minTimeout: 250,
  maxTimeout: 10_000,
  randomize: true,
};

/**
 * One keep-alive connection pool to the Slack API per configuration: the bot's clients and Bolt's
 * listener client share it. The Web client takes its transport as a `fetch` (web-api 8 has no
 * `agent` option): Node's fetch with an undici `Agent` as its dispatcher. The Agent serves http and
 * https alike, so SLACK_API_URL's scheme needs no choice here; Node's fetch (not undici's) because
 * the Web client builds multipart uploads with Node's own FormData, which undici's fetch does not
 * recognise.
 */
const fetchByConfig = new WeakMap<Config, FetchFunction>();

function keepAliveFetch(config: Config): FetchFunction {
  let fetch = fetchByConfig.get(config);
  if (fetch === undefined) {
    const dispatcher = new Agent({ connections: SLACK_CONNECTIONS });
    // Node's fetch takes any undici dispatcher; its types come from its own bundled copy of undici.
    fetch = (url, init) => globalThis.fetch(url, { ...init, dispatcher } as unknown as RequestInit);
    fetchByConfig.set(config, fetch);
  }
  return fetch;
}

/**
 * One set of Web client options for every client we build. The client waits out a 429's
 * Retry-After by itself (`rejectRateLimitedCalls: false`) and retries network failures and 5xx
 * answers by `retryConfig`; we add no retry loop around it (DESIGN: Slack platform facts).
 *
 * The logger is the bot's, at LOG_LEVEL: with debug off it writes none of the client's debug lines
 * and does not join or scrub them (bolt-logger.ts). The client still builds those lines on every
 * call (it redacts and serialises the body, the headers and the result whatever the logger's
 * level): a cost no option of the client turns off, measured in bench/README.md.
 */
export function webClientOptions(config: Config, logger: SlackLogger): WebClientOptions {
  return {
    slackApiUrl: config.slack.apiUrl,
    logger,
    retryConfig: SLACK_RETRY_POLICY,
    rejectRateLimitedCalls: false,
    fetch: keepAliveFetch(config),
    timeout: CALL_TIMEOUT_MS,
  };
}

/** The Web client the bot posts with (Bolt's App builds its own for listeners from the same options). */
export function createWebClient(config: Config, logger: Logger): WebClient {
  return new WebClient(config.slack.botToken, webClientOptions(config, toSlackLogger(logger)));
}

/**
 * A client for reads a turn can do without (thread context, names): a 429 or a slow Slack fails
 * the read at once instead of holding the turn, which then runs without that context.
 */
export function createFailFastWebClient(config: Config, logger: Logger): WebClient {
  return new WebClient(config.slack.botToken, {
    ...webClientOptions(config, toSlackLogger(logger)),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: 10_000,
  });
}
