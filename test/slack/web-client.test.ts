import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, WebClient, WebClientEvent } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { type Config, loadConfig } from '../../src/config/load-config.js';
import { toSlackLogger } from '../../src/logging.js';
import { classifySlackError, toThreadOutputError } from '../../src/slack/slack-errors.js';
import {
  createFailFastWebClient,
  createWebClient,
  SLACK_RETRY_POLICY,
  webClientOptions,
} from '../../src/slack/web-client.js';
import { memoryLogger } from '../support/memory-log.js';

function configFor(apiUrl: string): Config {
  return loadConfig({
    SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
    SLACK_SIGNING_SECRET: 'test-signing-secret-not-real',
    SLACK_API_URL: apiUrl,
    AGENT_API_URL: 'http://127.0.0.1:9',
    AGENT_API_TOKEN: 'test-agent-token-not-real',
    AGENT_ID: 'agent-1',
  });
}

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

let slack: SlackStandin | undefined;
let server: Server | undefined;
afterEach(async () => {
  await slack?.close();
  slack = undefined;
  const current = server;
  server = undefined;
  current?.closeAllConnections();
  await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
});

async function standin() {
  slack = await startSlackStandin();
  return { slack, config: configFor(slack.apiUrl) };
}

const calls = (standin: SlackStandin, method: string) =>
  standin.calls.filter((call) => call.method === method);

describe("the bot's Web client against the Slack stand-in", () => {
  it('posts an answer with blocks and metadata as the Web client sends it, and reads it back', async () => {
    const { slack, config } = await standin();
    const client = createWebClient(config, memoryLogger().logger);
    const posted = await client.chat.postMessage({
      channel: 'C1',
      text: 'answer',
      blocks: [{ type: 'markdown', text: '**answer**' }],
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
    expect(posted.ok).toBe(true);
    const [message] = slack.messages('C1');
    expect(message?.metadata).toEqual({ event_type: 'agent_answer', event_payload: { turn_id: 't1' } });
    expect(message?.blocks).toEqual([{ type: 'markdown', text: '**answer**' }]);
    const replies = await client.conversations.replies({ channel: 'C1', ts: String(posted.ts) });
    expect(replies.messages?.[0]?.text).toBe('answer');
  });

  it("writes the client's debug lines only at debug level, with the token redacted", async () => {
    const { config } = await standin();
    const quiet = memoryLogger('info');
    await createWebClient(config, quiet.logger).chat.postMessage({ channel: 'C1', text: 'hi' });
    const verbose = memoryLogger('debug');
    await createWebClient(config, verbose.logger).chat.postMessage({ channel: 'C1', text: 'hi' });
    const requestLines = (lines: string[]) => lines.filter((line) => line.includes('http request'));
    expect(requestLines(quiet.lines())).toEqual([]);
    expect(requestLines(verbose.lines()).length).toBeGreaterThanOrEqual(3);
    expect(verbose.lines().join('\n')).not.toContain(TEST_BOT_TOKEN);
  });

  it("waits out a 429's Retry-After, then tries again and succeeds", async () => {
    const { slack, config } = await standin();
    slack.rateLimitNext('chat.postMessage', 1, 1);
    const client = createWebClient(config, memoryLogger().logger);
    const started = Date.now();
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'patience' });
    expect(posted.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(calls(slack, 'chat.postMessage').map((call) => call.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
  });

  it('fails as rate limited when the last attempt is still refused with a 429', async () => {
    const { slack, config } = await standin();
    slack.rateLimitNext('chat.update', 0, 3);
    // The bot's options with fewer retries, so the test does not wait out the whole policy.
    const client = new WebClient(config.slack.botToken, {
      ...webClientOptions(config, toSlackLogger(memoryLogger().logger)),
      retryConfig: { retries: 2, minTimeout: 1, maxTimeout: 1 },
    });
    const error = await failure(client.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' }));
    expect(calls(slack, 'chat.update')).toHaveLength(3);
    // web-api 8 wraps its own "rate limit was exceeded" as a request error; slack-errors.ts reads it.
    expect(error.code).toBe(ErrorCode.RequestError);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'ratelimited' });
    expect(toThreadOutputError('chat.update', error)).toMatchObject({
      kind: 'transient',
      code: 'ratelimited',
    });
  });

  it('retries a 5xx by its retry policy and succeeds once Slack is back', async () => {
    const { slack, config } = await standin();
    slack.setOutage('chat.postMessage', { status: 503 });
    const client = createWebClient(config, memoryLogger().logger);
    const pending = client.chat.postMessage({ channel: 'C1', text: 'again' });
    await slack.waitFor(() => calls(slack, 'chat.postMessage').length > 0, { description: 'the first try' });
    slack.setOutage('chat.postMessage', undefined);
    expect((await pending).ok).toBe(true);
    const outcomes = calls(slack, 'chat.postMessage').map((call) => call.error ?? 'ok');
    expect(outcomes[0]).toBe('http_503');
    expect(outcomes.at(-1)).toBe('ok');
    expect(outcomes.length).toBeLessThanOrEqual(1 + (SLACK_RETRY_POLICY.retries ?? 0));
  });

  it("gives up on a lasting 5xx after the policy's retries, with the HTTP error classified transient", async () => {
    const { slack, config } = await standin();
    slack.setOutage('assistant.threads.setStatus', { status: 500 });
    const client = new WebClient(config.slack.botToken, {
      ...webClientOptions(config, toSlackLogger(memoryLogger().logger)),
      retryConfig: { ...SLACK_RETRY_POLICY, retries: 2, minTimeout: 1, maxTimeout: 1 },
    });
    const error = await failure(
      client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: '1.000001', status: 'x' }),
    );
    expect(error.code).toBe(ErrorCode.HTTPError);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'http_500' });
    expect(calls(slack, 'assistant.threads.setStatus')).toHaveLength(3);
  });

  it('fails a refusal as a platform error without trying again', async () => {
    const { slack, config } = await standin();
    slack.failNext('chat.update', 'message_not_found');
    const client = createWebClient(config, memoryLogger().logger);
    const error = await failure(client.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' }));
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect(classifySlackError(error)).toEqual({ kind: 'permanent', code: 'message_not_found' });
    expect(calls(slack, 'chat.update')).toHaveLength(1);
    const refused = await failure(client.chat.postMessage({ channel: 'C1', text: 'x'.repeat(40_001) }));
    expect(classifySlackError(refused)).toEqual({ kind: 'content', code: 'msg_too_long' });
  });

  it('holds every later call of the same client while it waits out a 429; another client goes ahead', async () => {
    const { slack, config } = await standin();
    slack.rateLimitNext('chat.update', 1, 1);
    const held = createWebClient(config, memoryLogger().logger);
    const other = createWebClient(config, memoryLogger().logger);
    const order: string[] = [];
    const waiting = new Promise<void>((resolve) => held.once(WebClientEvent.RATE_LIMITED, () => resolve()));
    const update = held.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' }).catch(() => undefined);
    await waiting;
    // The client pauses its queue right after telling of the 429.
    await new Promise((resolve) => setImmediate(resolve));
    const answer = held.chat
      .postMessage({ channel: 'C1', text: 'answer' })
      .then(() => order.push('same client'));
    const elsewhere = other.chat
      .postMessage({ channel: 'C1', text: 'elsewhere' })
      .then(() => order.push('other client'));
    await Promise.all([update, answer, elsewhere]);
    expect(order).toEqual(['other client', 'same client']);
  });
});

describe('the fail-fast client for reads a turn can do without', () => {
  it('fails a 429 at once as a rate-limited error', async () => {
    const { slack, config } = await standin();
    slack.rateLimitNext('conversations.replies', 30, 1);
    const client = createFailFastWebClient(config, memoryLogger().logger);
    const started = Date.now();
    const error = await failure(client.conversations.replies({ channel: 'C1', ts: '1.000001' }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error.code).toBe(ErrorCode.RateLimitedError);
    expect(error.retryAfter).toBe(30);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'ratelimited' });
    expect(calls(slack, 'conversations.replies')).toHaveLength(1);
  });

  it('fails a dropped connection at once as a request error, and logs it', async () => {
    const { slack, config } = await standin();
    slack.setOutage('users.info', { drop: true });
    const { logger, lines } = memoryLogger('warn');
    const error = await failure(createFailFastWebClient(config, logger).users.info({ user: 'U1' }));
    expect(error.code).toBe(ErrorCode.RequestError);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'network' });
    expect(calls(slack, 'users.info')).toHaveLength(1);
    expect(lines().some((line) => line.includes('http request failed'))).toBe(true);
  });
});

describe('the connection pool to Slack', () => {
  it('keeps connections alive across calls, shared by every client of one configuration', async () => {
    const ports: number[] = [];
    server = createServer((request, response) => {
      ports.push(request.socket.remotePort ?? 0);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const config = configFor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`);
    const bot = createWebClient(config, memoryLogger().logger);
    const reads = createFailFastWebClient(config, memoryLogger().logger);
    for (let i = 0; i < 4; i += 1) {
      await bot.auth.test();
      await reads.auth.test();
    }
    expect(ports).toHaveLength(8);
    // Without keep-alive every call opens a connection; with one pool they take turns on one or two.
    expect(new Set(ports).size).toBeLessThanOrEqual(2);
  });
});
