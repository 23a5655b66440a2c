import type { FetchFunction, RetryOptions, Logger as SlackLogger, WebClientOptions } from '@slack/web-api';
import { WebClient } from '@slack/web-api';
import { Agent, type RequestInit as UndiciRequestInit, fetch as undiciFetch } from 'undici';
import type { Config } from '../config/load-config.js';
import { toSlackLogger } from '../logging.js';
import type { Logger } from '../runtime/logger.js';

/** Client-side bound of one Web API call: the pool's wait for the headers, and between body chunks. */
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
 * `agent` option): undici's own fetch with an undici `Agent` as its dispatcher. The Agent serves
 * http and https alike, so SLACK_API_URL's scheme needs no choice here. undici's fetch rather than
 * Node's: on Node 20 the global fetch is an older bundled undici that costs about a third more CPU
 * per call (bench/README.md). Multipart uploads are the exception: the Web client builds them with
 * Node's own FormData, which only Node's fetch recognises, so those go through it (same pool).
 *
 * The pool also bounds each call in time (`headersTimeout`, `bodyTimeout`): the Web client's own
 * `timeout` builds an `AbortSignal.timeout` and its timer for every call, a measurable share of a
 * call's CPU; undici's timers are per connection and cost nothing extra per call.
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
    // No per-call timer: the pool's headersTimeout and bodyTimeout bound every call (above).
    timeout: 0,
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
