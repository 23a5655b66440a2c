import type { Logger as SlackLogger, WebClientOptions } from '@slack/web-api';
import type { Config } from '../config.js';

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
