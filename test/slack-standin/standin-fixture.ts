import { webApi } from '@slack/bolt';
import { afterEach, beforeEach } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';

/** Keeps Slack's own error/warning lines (expected in these tests) out of the output. */
export const silentLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName() {},
};

/** A real Web client, pointed at `apiUrl`, without retries unless given. */
export function webClient(apiUrl: string, options: webApi.WebClientOptions = {}): webApi.WebClient {
  return new webApi.WebClient(TEST_BOT_TOKEN, {
    slackApiUrl: apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
    ...options,
  });
}

/** The Slack error name a Web client call failed with (throws if it did not fail that way). */
export async function slackError(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const e = error as { code?: string; data?: { error?: string } };
    if (e.code === webApi.ErrorCode.PlatformError) return e.data?.error ?? 'no error name';
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A fresh stand-in and Web client per test, closed afterwards. */
export function useStandin(): { standin: SlackStandin; client: webApi.WebClient } {
  const ctx = {} as { standin: SlackStandin; client: webApi.WebClient };
  beforeEach(async () => {
    ctx.standin = await startSlackStandin();
    ctx.client = webClient(ctx.standin.apiUrl);
  });
  afterEach(async () => {
    await ctx.standin.close();
  });
  return ctx;
}
