import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackFetch, SlackFetchTimeoutError } from '../../src/slack/slack-fetch.js';

const FAKE_BOT_TOKEN = 'xoxb-test-not-a-real-token';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socketPort: number | undefined;
}

let server: Server | undefined;

afterEach(async () => {
  const current = server;
  server = undefined;
  current?.closeAllConnections();
  await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
});

/** A Slack-shaped API on loopback: `handler` answers each call; every call is recorded. */
async function fakeApi(handler: (seen: Seen, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        socketPort: request.socket.remotePort,
      };
      seen.push(call);
      handler(call, response);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { apiUrl: `http://127.0.0.1:${port}/api/`, seen };
}

const okJson = (response: ServerResponse, body: object, headers: Record<string, string> = {}) => {
  response.writeHead(200, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

describe('the Web client on the pooled fetch', () => {
  it('sends the form-encoded call as the Web client builds it and reads the JSON answer', async () => {
    const api = await fakeApi((_call, response) =>
      okJson(response, { ok: true, ts: '1.000001' }, { 'x-oauth-scopes': 'chat:write' }),
    );
    const client = new WebClient(FAKE_BOT_TOKEN, {
      slackApiUrl: api.apiUrl,
      fetch: createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 5_000 }),
      timeout: 0,
    });
    const result = await client.chat.postMessage({ channel: 'C1', text: 'hello', thread_ts: '1.0' });
    expect(result).toMatchObject({ ok: true, ts: '1.000001', response_metadata: { scopes: ['chat:write'] } });
    const [call] = api.seen;
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('/api/chat.postMessage');
    expect(call?.headers.authorization).toBe(`Bearer ${FAKE_BOT_TOKEN}`);
    expect(call?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(call?.body).get('text')).toBe('hello');
  });

  it('keeps the connection alive between calls', async () => {
    const api = await fakeApi((_call, response) => okJson(response, { ok: true }));
    // One connection at most: without keep-alive every call would need a new socket.
    const fetch = createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 5_000, connections: 1 });
    const client = new WebClient(FAKE_BOT_TOKEN, { slackApiUrl: api.apiUrl, fetch, timeout: 0 });
    await client.auth.test();
    await client.auth.test();
    await client.auth.test();
    expect(api.seen).toHaveLength(3);
    expect(new Set(api.seen.map((call) => call.socketPort)).size).toBe(1);
  });

  it('hands Slack errors and rate limits to the Web client as it expects them', async () => {
    const api = await fakeApi((call, response) => {
      if (api.seen.length === 1) {
        response.writeHead(429, { 'retry-after': '0' });
        response.end();
        return;
      }
      okJson(response, { ok: false, error: call.url.endsWith('chat.update') ? 'message_not_found' : 'x' });
    });
    const client = new WebClient(FAKE_BOT_TOKEN, {
      slackApiUrl: api.apiUrl,
      fetch: createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 5_000 }),
      timeout: 0,
      retryConfig: { retries: 1, minTimeout: 1, maxTimeout: 1 },
    });
    await expect(client.chat.update({ channel: 'C1', ts: '1.0', text: 'x' })).rejects.toMatchObject({
      code: 'slack_webapi_platform_error',
      data: { error: 'message_not_found' },
    });
    expect(api.seen).toHaveLength(2);
  });

  it('gives up on a call with no answer within the timeout', async () => {
    const api = await fakeApi(() => {
      // never answers
    });
    const fetch = createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 50 });
    const started = Date.now();
    await expect(
      fetch(`${api.apiUrl}auth.test`, { method: 'POST', body: '', headers: {} }),
    ).rejects.toBeInstanceOf(SlackFetchTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const api = await fakeApi(() => {
      // never answers
    });
    const fetch = createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 5_000 });
    const controller = new AbortController();
    const pending = fetch(`${api.apiUrl}auth.test`, {
      method: 'POST',
      body: '',
      headers: {},
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('shutting down')), 20);
    await expect(pending).rejects.toThrow('shutting down');
  });

  it('sends a multipart body through the standard fetch, unchanged', async () => {
    const api = await fakeApi((_call, response) => okJson(response, { ok: true }));
    const fetch = createSlackFetch({ apiUrl: api.apiUrl, timeoutMs: 5_000 });
    const form = new FormData();
    form.append('content', 'hello file');
    const response = await fetch(`${api.apiUrl}files.upload`, { method: 'POST', body: form, headers: {} });
    expect(await response.json()).toEqual({ ok: true });
    expect(api.seen[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(api.seen[0]?.body).toContain('hello file');
  });
});
