import { ErrorCode, type FetchFunction, type RetryOptions } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  type SlackStandin,
  startSlackStandin,
  TEST_BOT_TOKEN,
} from '../../src/sandbox/slack-standin/index.js';
import { toSlackLogger } from '../../src/slack/bolt-logger.js';
import { createLeanApiCall, retryDelayMs } from '../../src/slack/lean-api-call.js';
import { classifySlackError } from '../../src/slack/slack-errors.js';
import { createWebClient } from '../../src/slack/web-client.js';
import { memoryLogger } from '../support/memory-log.js';

type Answer = { status: number; body?: string; headers?: Record<string, string> } | Error;

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fetch that answers from a script and records what it was sent. */
function scriptedFetch(answers: Answer[]) {
  const sent: Sent[] = [];
  const fetch: FetchFunction = async (input, init) => {
    sent.push({
      url: String(input),
      headers: init?.headers as Record<string, string>,
      body: String(init?.body),
    });
    const answer = answers.shift() ?? { status: 200, body: '{"ok":true}' };
    if (answer instanceof Error) throw answer;
    const headers = new Map(Object.entries(answer.headers ?? {}));
    return {
      status: answer.status,
      statusText: '',
      ok: answer.status === 200,
      url: String(input),
      headers: { get: (name: string) => headers.get(name) ?? null, entries: () => headers.entries() },
      text: async () => answer.body ?? '',
      json: async () => JSON.parse(answer.body ?? ''),
      arrayBuffer: async () => new ArrayBuffer(0),
    } as unknown as Awaited<ReturnType<FetchFunction>>;
  };
  return { fetch, sent };
}

const RETRY: RetryOptions = { retries: 5, factor: 2, minTimeout: 250, maxTimeout: 10_000, randomize: true };

function leanCall(answers: Answer[], options: { retry?: RetryOptions; reject?: boolean } = {}) {
  const { fetch, sent } = scriptedFetch(answers);
  const slept: number[] = [];
  const { logger, lines } = memoryLogger('debug');
  const call = createLeanApiCall({
    apiUrl: 'http://127.0.0.1:9/api/',
    token: 'xoxb-test-not-a-real-token',
    fetch,
    retry: options.retry ?? RETRY,
    rejectRateLimitedCalls: options.reject,
    logger: toSlackLogger(logger),
    sleep: async (ms) => {
      slept.push(ms);
    },
    random: () => 0.5,
  });
  return { call, sent, slept, lines };
}

const ok = (result: object) => ({ status: 200, body: JSON.stringify({ ok: true, ...result }) });

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to fail');
}

describe('lean Web API call', () => {
  it('sends one JSON exchange with the bearer token, and gives back the result', async () => {
    const { call, sent } = leanCall([ok({ ts: '1.2', channel: 'C1' })]);
    const result = await call('chat.postMessage', {
      channel: 'C1',
      text: 'hi',
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
    expect(result).toMatchObject({ ok: true, ts: '1.2' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('http://127.0.0.1:9/api/chat.postMessage');
    expect(sent[0]?.headers).toEqual({
      Authorization: 'Bearer xoxb-test-not-a-real-token',
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(JSON.parse(sent[0]?.body ?? '')).toEqual({
      channel: 'C1',
      text: 'hi',
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
  });

  it('takes a token given with the call, and never puts it in the body', async () => {
    const { call, sent } = leanCall([ok({})]);
    await call('chat.delete', { channel: 'C1', ts: '1.2', token: 'xoxb-other-not-a-real-token' });
    expect(sent[0]?.headers.Authorization).toBe('Bearer xoxb-other-not-a-real-token');
    expect(sent[0]?.body).not.toContain('xoxb-');
  });

  it("fails a refusal as the Web client's platform error, without trying again", async () => {
    const { call, sent } = leanCall([{ status: 200, body: '{"ok":false,"error":"not_in_channel"}' }]);
    const error = await failure(call('chat.postMessage', { channel: 'C1', text: 'x' }));
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect(error.data).toEqual({ ok: false, error: 'not_in_channel' });
    expect(classifySlackError(error)).toEqual({ kind: 'permanent', code: 'not_in_channel' });
    expect(sent).toHaveLength(1);
  });

  it('reads a body that is not JSON as a refusal named by that body, as the Web client does', async () => {
    const { call } = leanCall([{ status: 200, body: 'upstream hiccup' }]);
    const error = await failure(call('chat.update', { channel: 'C1', ts: '1.2', text: 'x' }));
    expect(error.code).toBe(ErrorCode.PlatformError);
    expect((error.data as { error: string }).error).toBe('upstream hiccup');
  });

  it('retries HTTP failures with the backoff of the retry policy, then succeeds', async () => {
    const { call, sent, slept } = leanCall([{ status: 500 }, { status: 502 }, ok({ ts: '9.9' })]);
    expect(await call('chat.postMessage', { channel: 'C1', text: 'x' })).toMatchObject({ ts: '9.9' });
    expect(sent).toHaveLength(3);
    expect(slept).toEqual([retryDelayMs(RETRY, 0, () => 0.5), retryDelayMs(RETRY, 1, () => 0.5)]);
    expect(slept).toEqual([375, 750]);
  });

  it('gives up after the last retry with the HTTP error, which delivery treats as passing', async () => {
    const { call, sent } = leanCall(
      Array.from({ length: 10 }, () => ({ status: 503, body: 'busy' })),
      {
        retry: { ...RETRY, retries: 2 },
      },
    );
    const error = await failure(call('assistant.threads.setStatus', { channel_id: 'C1', thread_ts: '1.2' }));
    expect(error.code).toBe(ErrorCode.HTTPError);
    expect(error.statusCode).toBe(503);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'http_503' });
    expect(sent).toHaveLength(3);
  });

  it('wraps a failed connection as a request error, keeping the original, after the retries', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const { call, sent, lines } = leanCall([refused, refused], { retry: { ...RETRY, retries: 1 } });
    const error = await failure(call('chat.postMessage', { channel: 'C1', text: 'x' }));
    expect(error.code).toBe(ErrorCode.RequestError);
    expect(error.original).toBe(refused);
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'network' });
    expect(sent).toHaveLength(2);
    expect(lines().some((line) => line.includes('http request failed'))).toBe(true);
  });

  it("waits out a 429's Retry-After, then tries again at once", async () => {
    const { call, sent, slept } = leanCall([
      { status: 429, body: '{"ok":false,"error":"ratelimited"}', headers: { 'retry-after': '3' } },
      ok({ ts: '1.3' }),
    ]);
    expect(await call('chat.postMessage', { channel: 'C1', text: 'x' })).toMatchObject({ ts: '1.3' });
    expect(slept).toEqual([3_000]);
    expect(sent).toHaveLength(2);
  });

  it('fails a 429 at once as a rate-limited error when told to reject rate-limited calls', async () => {
    const { call, sent, slept } = leanCall([{ status: 429, headers: { 'retry-after': '7' } }], {
      reject: true,
    });
    const error = await failure(call('chat.postMessage', { channel: 'C1', text: 'x' }));
    expect(error.code).toBe(ErrorCode.RateLimitedError);
    expect(error.retryAfter).toBe(7);
    expect(slept).toEqual([]);
    expect(sent).toHaveLength(1);
  });

  it('fails as rate limited when the last attempt is still refused with a 429', async () => {
    const limited = { status: 429, headers: { 'retry-after': '1' } };
    const { call, sent } = leanCall([limited, limited], { retry: { ...RETRY, retries: 1 } });
    const error = await failure(call('chat.postMessage', { channel: 'C1', text: 'x' }));
    expect(classifySlackError(error)).toEqual({ kind: 'transient', code: 'ratelimited' });
    expect(sent).toHaveLength(2);
  });

  it("logs Slack's warnings about a call", async () => {
    const { call, lines } = leanCall([ok({ response_metadata: { warnings: ['missing_charset'] } })]);
    await call('chat.postMessage', { channel: 'C1', text: 'x' });
    expect(lines().some((line) => line.includes('missing_charset'))).toBe(true);
  });
});

describe("the bot's Web client", () => {
  let slack: SlackStandin | undefined;
  afterEach(async () => {
    await slack?.close();
    slack = undefined;
  });

  it('sends the per-turn methods as JSON and every other method as the Web client does', async () => {
    slack = await startSlackStandin();
    const config = loadConfig({
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_SIGNING_SECRET: 'test-signing-secret-not-real',
      SLACK_API_URL: slack.apiUrl,
      AGENT_API_URL: 'http://127.0.0.1:9',
      AGENT_API_TOKEN: 'test-agent-token-not-real',
      AGENT_ID: 'agent-1',
    });
    const client = createWebClient(config, memoryLogger().logger);
    const posted = await client.chat.postMessage({
      channel: 'C1',
      text: 'answer',
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
    expect(posted.ok).toBe(true);
    const replies = await client.conversations.replies({ channel: 'C1', ts: String(posted.ts) });
    expect(replies.messages?.[0]?.text).toBe('answer');
    const postCall = slack.calls.find((call) => call.method === 'chat.postMessage');
    const readCall = slack.calls.find((call) => call.method === 'conversations.replies');
    // A JSON body keeps the metadata an object; the form body of conversations.replies has strings only.
    expect(postCall?.args.metadata).toEqual({ event_type: 'agent_answer', event_payload: { turn_id: 't1' } });
    expect(readCall?.args.ts).toBe(String(posted.ts));
    const refused = await failure(client.chat.postMessage({ channel: 'C1', text: '' }));
    expect(refused.code).toBe(ErrorCode.PlatformError);
  });
});
