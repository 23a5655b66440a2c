import { afterEach, describe, expect, it } from 'vitest';
import { createRequestBudget } from '../../src/agent-api/index.js';
import type { Clock } from '../../src/conversation/ports.js';
import { testClient } from './support/client.js';
import {
  closedPortUrl,
  inOrder,
  type ScriptedReply,
  type ScriptedServer,
  startScriptedServer,
} from './support/scripted-server.js';

/** Retries counted on the server: what was actually sent, not what a mock recorded. */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = { status: 200, body: { status: 'loading', totalSteps: 1 } };
const started = { status: 200, body: { status: 'started', sessionId: 's-1' } };
const listing: unknown[] = [];

describe('reads and idempotent writes', () => {
  it('503, 503, 200 → three requests and the result', async () => {
    server = await startScriptedServer(inOrder({ status: 503 }, { status: 503 }, ok));
    const { api, sleeps } = testClient(server.url);
    await expect(api.getRunStatus('a', 's')).resolves.toMatchObject({ status: 'loading' });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('gives up after retry.limit retries', async () => {
    server = await startScriptedServer(inOrder({ status: 502 }));
    const { api } = testClient(server.url, { retry: { limit: 2 } });
    await expect(api.listSubAccounts()).rejects.toMatchObject({ code: 'http_error', status: 502 });
    expect(server.requests).toHaveLength(3);
  });

  type Api = ReturnType<typeof testClient>['api'];
  const cases: Array<[string, ScriptedReply, ScriptedReply, (api: Api) => Promise<unknown>]> = [
    [
      'PUT sub account on 504',
      { status: 504 },
      { status: 204 },
      (api) => api.updateSubAccount(7, {} as never),
    ],
    [
      'feedback upsert on 429',
      { status: 429 },
      { status: 200, body: [] },
      (api) => api.submitFeedback('a', [{ sessionId: 's', feedbackName: 'f', score: true }]),
    ],
    [
      'enable on 503',
      { status: 503 },
      { status: 200, body: { id: 'a', active: true } },
      (api) => api.enableAgent('a'),
    ],
    [
      'export on a reset connection',
      { status: 200, reset: true },
      { status: 200, body: { kibanaVersion: '7', hits: [] } },
      (api) => api.exportSavedObjects('search'),
    ],
  ];
  it.each(cases)('retries %s', async (_name, first, success, call) => {
    server = await startScriptedServer(inOrder(first, success));
    const { api } = testClient(server.url);
    await call(api);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400 or a 500', async () => {
    server = await startScriptedServer(
      inOrder({ status: 400 }, { status: 500 }, { status: 200, body: listing }),
    );
    const { api } = testClient(server.url);
    await expect(api.listSubAccounts()).rejects.toMatchObject({ code: 'rejected_request' });
    await expect(api.listSubAccounts()).rejects.toMatchObject({ code: 'http_error', status: 500 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('run start and follow-up are never repeated once they may have arrived', () => {
  it.each([
    [503, 'maintenance'],
    [502, 'http_error'],
    [504, 'http_error'],
  ])('start run on %i → exactly one request', async (status, code) => {
    server = await startScriptedServer(inOrder({ status }, started));
    const { api } = testClient(server.url);
    await expect(api.startRun('a', { message: 'hi' })).rejects.toMatchObject({ code, status });
    expect(server.requests).toHaveLength(1);
  });

  it('follow-up on a reset connection → exactly one request', async () => {
    server = await startScriptedServer(inOrder({ status: 200, reset: true }, started));
    const { api } = testClient(server.url);
    await expect(api.followUp('a', 's-1', { message: 'more' })).rejects.toMatchObject({ code: 'network' });
    expect(server.requests).toHaveLength(1);
  });

  it('start run on a timeout → exactly one request', async () => {
    server = await startScriptedServer(inOrder({ ...started, delayMs: 500 }, started));
    const { api } = testClient(server.url);
    await expect(api.startRun('a', { message: 'hi' }, { timeoutMs: 50 })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('start run on 429 is retried: the service turned it away unhandled', async () => {
    server = await startScriptedServer(inOrder({ status: 429, headers: { 'retry-after': '1' } }, started));
    const { api, sleeps } = testClient(server.url);
    await expect(api.startRun('a', { message: 'hi' })).resolves.toEqual({ sessionId: 's-1' });
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('start run on a refused connection is retried: nothing was sent', async () => {
    const { api, sleeps } = testClient(await closedPortUrl(), { retry: { limit: 2 } });
    await expect(api.startRun('a', { message: 'hi' })).rejects.toMatchObject({ code: 'network' });
    expect(sleeps).toHaveLength(2);
  });
});

describe('Retry-After', () => {
  it('is honoured in seconds and as an HTTP date', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    server = await startScriptedServer(
      inOrder(
        { status: 503, headers: { 'retry-after': '3' } },
        { status: 429, headers: { 'retry-after': new Date(now + 9000).toUTCString() } },
        ok,
      ),
    );
    const { api, sleeps } = testClient(server.url);
    await api.getRunStatus('a', 's');
    expect(sleeps).toEqual([3000, 9000]);
  });

  it('longer than maxRetryAfterMs: not waited for, the error is returned at once', async () => {
    server = await startScriptedServer(inOrder({ status: 503, headers: { 'retry-after': '120' } }, ok));
    const { api, sleeps } = testClient(server.url, { retry: { maxRetryAfterMs: 30_000 } });
    await expect(api.getRunStatus('a', 's')).rejects.toMatchObject({
      code: 'maintenance',
      retryAfterMs: 120_000,
    });
    expect([server.requests.length, sleeps.length]).toEqual([1, 0]);
  });
});

describe('a backoff sleep holds no budget slot', () => {
  it('lets another request use the only slot while the first one waits to retry', async () => {
    server = await startScriptedServer((request, index) =>
      index === 0
        ? { status: 503 }
        : request.path === '/v2/whoami'
          ? { status: 200, body: { accountId: 1, accountName: 'main' } }
          : ok,
    );
    const budget = createRequestBudget({ limit: 1 });
    const inFlightDuringSleep: number[] = [];
    let other: Promise<unknown> | undefined;
    const clock: Clock = {
      now: () => Date.now(),
      sleep: async () => {
        inFlightDuringSleep.push(budget.inFlight());
        other = api.whoami();
        await other;
      },
    };
    const { api } = testClient(server.url, { budget, clock });
    await expect(api.getRunStatus('a', 's')).resolves.toMatchObject({ status: 'loading' });
    expect(inFlightDuringSleep).toEqual([0]);
    await expect(other).resolves.toEqual({ accountId: 1, accountName: 'main' });
  });
});
