import { type Logger as SlackLogger, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Config } from '../config.js';
import type { Logger } from '../conversation/ports.js';
import { toSlackLogger } from './bolt-logger.js';

/**
 * One set of Web client options for every client we build. The client itself retries 429s
 * after Retry-After; we add no second retry loop around it (DESIGN: Slack platform facts).
 */
export function webClientOptions(config: Config, logger: SlackLogger): WebClientOptions {
  return {
    slackApiUrl: config.slack.apiUrl,
    logger,
    retryConfig: { retries: 5, factor: 2, minTimeout: 250, maxTimeout: 10_000, randomize: true },
    timeout: 30_000,
  };
}

/** The Web client the bot posts with (Bolt's App builds its own for listeners from the same options). */
export function createWebClient(config: Config, logger: Logger, overrides: WebClientOptions = {}): WebClient {
  return new WebClient(config.slack.botToken, {
    ...webClientOptions(config, toSlackLogger(logger)),
    ...overrides,
  });
}

/**
 * A client for reads a turn can do without (thread context, names): a 429 or a slow Slack fails
 * the read at once instead of holding the turn, which then runs without that context.
 */
export function createFailFastWebClient(config: Config, logger: Logger): WebClient {
  return createWebClient(config, logger, {
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: 10_000,
  });
}
