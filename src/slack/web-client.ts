import {
  type FetchFunction,
  type Logger as SlackLogger,
  type WebAPICallResult,
  WebClient,
  type WebClientOptions,
} from '@slack/web-api';
import type { Config } from '../config.js';
import type { Logger } from '../conversation/ports.js';
import { toSlackLogger } from './bolt-logger.js';
import { createLeanApiCall, LEAN_METHODS, type LeanApiCall } from './lean-api-call.js';
import { createSlackFetch } from './slack-fetch.js';

/** Client-side timeout of one Web API call. */
const CALL_TIMEOUT_MS = 30_000;

/** One keep-alive pool to the Slack API per configuration: the bot's client and Bolt's share it. */
const fetchByConfig = new WeakMap<Config, FetchFunction>();

function slackFetchFor(config: Config): FetchFunction {
  let fetch = fetchByConfig.get(config);
  if (fetch === undefined) {
    fetch = createSlackFetch({ apiUrl: config.slack.apiUrl, timeoutMs: CALL_TIMEOUT_MS });
    fetchByConfig.set(config, fetch);
  }
  return fetch;
}

/**
 * One set of Web client options for every client we build. The client itself retries 429s
 * after Retry-After; we add no second retry loop around it (DESIGN: Slack platform facts).
 */
export function webClientOptions(
  config: Config,
  logger: SlackLogger,
): WebClientOptions & { fetch: FetchFunction; logger: SlackLogger } {
  return {
    slackApiUrl: config.slack.apiUrl,
    logger,
    retryConfig: { retries: 5, factor: 2, minTimeout: 250, maxTimeout: 10_000, randomize: true },
    // The timeout lives in the fetch (one timer per call instead of an AbortSignal.timeout).
    fetch: slackFetchFor(config),
    timeout: 0,
  };
}

/**
 * The Web client a turn posts with: every method as the Web client does it, except the few a turn
 * calls on every run (lean-api-call.ts), which go out as one JSON exchange on the same pool with the
 * same errors and retries.
 */
class BotWebClient extends WebClient {
  readonly #lean: LeanApiCall;

  constructor(token: string, options: WebClientOptions & { fetch: FetchFunction; logger: SlackLogger }) {
    super(token, options);
    this.#lean = createLeanApiCall({
      apiUrl: this.slackApiUrl,
      token,
      fetch: options.fetch,
      retry: options.retryConfig ?? {},
      rejectRateLimitedCalls: options.rejectRateLimitedCalls,
      logger: options.logger,
    });
  }

  override apiCall(method: string, options: Record<string, unknown> = {}): Promise<WebAPICallResult> {
    return LEAN_METHODS.has(method) ? this.#lean(method, options) : super.apiCall(method, options);
  }
}

/** The Web client the bot posts with (Bolt's App builds its own for listeners from the same options). */
export function createWebClient(config: Config, logger: Logger): WebClient {
  return new BotWebClient(config.slack.botToken, webClientOptions(config, toSlackLogger(logger)));
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
