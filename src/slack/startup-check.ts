import { WebClient } from '@slack/web-api';
import type { Config } from '../config/load-config.js';
import { toSlackLogger } from '../logging.js';
import type { Logger } from '../runtime/logger.js';
import type { SlackIdentity } from './slack-identity.js';
import { FAIL_FAST_OPTIONS } from './web-client.js';

/** Raised when the bot token cannot be checked; main.ts exits 1 with its message. */
export class SlackStartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SlackStartupError';
  }
}

/** Checks the bot token once, bounded (Bolt would retry an unreachable Slack ~30 min, unhandled). */
export async function checkSlackToken(
  config: Config,
  logger: Logger,
  timeoutMs = 10_000,
): Promise<SlackIdentity> {
  const client = new WebClient(config.slack.botToken, {
    slackApiUrl: config.slack.apiUrl,
    logger: toSlackLogger(logger),
    ...FAIL_FAST_OPTIONS,
    timeout: timeoutMs,
  });
  const result = await client.auth.test().catch((error: unknown) => {
    const reason = (error as { data?: { error?: string } }).data?.error ?? rootCause(error);
    throw new SlackStartupError(
      `could not verify SLACK_BOT_TOKEN with Slack (${config.slack.apiUrl}auth.test): ${reason}`,
      { cause: error },
    );
  });
  if (!result.user_id || !result.team_id) {
    throw new SlackStartupError(
      'auth.test answered without a bot user or team: is SLACK_BOT_TOKEN a bot token (xoxb-…)?',
    );
  }
  return {
    botUserId: result.user_id,
    botId: result.bot_id ?? '',
    teamId: result.team_id,
    // Empty outside Enterprise Grid in some answers; absent in others.
    enterpriseId: result.enterprise_id || undefined,
    url: result.url || undefined,
  };
}

/** The innermost cause's message ("connect ECONNREFUSED …", "invalid_auth"): what a person can act on. */
function rootCause(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const code = (current as { code?: unknown }).code;
  const message = current instanceof Error ? current.message : String(current);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
