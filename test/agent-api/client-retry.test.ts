import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRequestBudget } from '../../src/agent-api/index.js';
import { testClient } from './support/client.js';
import {
  closedPortUrl,
  inOrder,
  type ScriptedReply,
  type ScriptedServer,
  startScriptedServer,
} from './support/scripted-server.js';

/**
 * Retries counted on the server: what was actually sent, not what a mock recorded. ky waits for
 * real, so waits are measured as the gaps between arrivals (lower bounds: a timer never fires early).
 */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = { status: 200, body: { status: 'loading', totalSteps: 1 } };
const started = { status: 200, body: { status: 'started', sessionId: 's-1' } };
const listing: unknown[] = [];

/** Milliseconds between consecutive requests' arrivals at the server. */
const gaps = (scripted: ScriptedServer) =>
  scripted.requests.slice(1).map((request, index) => request.at - (scripted.requests[index]?.at ?? 0));
/** Timer and loopback slack when comparing a measured gap with the wait asked for. */
const SLACK_MS = 5;

describe('reads and idempotent writes', () => {
  it('503, 503, 200 → three requests and the result, after the jittered backoff', async () => {
    server = await startScriptedServer(inOrder({ status: 503 }, { status: 503 }, ok));
    const { api } = testClient(server.url);
    await expect(api.getRunStatus('a', 's')).resolves.toMatchObject({ status: 'loading' });
    expect(server.requests).toHaveLength(3);
    // Full jitter with the draw fixed at 0.5: half of 200 ms, then half of 400 ms.
    const [first, second] = gaps(server);
    expect(first).toBeGreaterThanOrEqual(100 - SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(200 - SLACK_MS);
  });

  it('stops after the default three retries', async () => {
    server = await startScriptedServer(inOrder({ status: 503 }));
    const { api } = testClient(server.url, { retry: { baseDelayMs: 10 } });
    await expect(api.whoami()).rejects.toMatchObject({ code: 'maintenance' });
    expect(server.requests).toHaveLength(4);
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

  it('start run on 429 is retried after Retry-After: the service turned it away unhandled', async () => {
    server = await startScriptedServer(inOrder({ status: 429, headers: { 'retry-after': '0.3' } }, started));
    const { api } = testClient(server.url);
    await expect(api.startRun('a', { message: 'hi' })).resolves.toEqual({ sessionId: 's-1' });
    expect(server.requests).toHaveLength(2);
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(300 - SLACK_MS);
  });

  it('start run on a refused connection is retried: nothing was sent', async () => {
    const retries: number[] = [];
    const log = () => undefined;
    const logger = {
      debug: log,
      info: log,
      error: log,
      warn: (fields: object) => retries.push((fields as { retryNumber: number }).retryNumber),
      child: () => logger,
    };
    const { api } = testClient(await closedPortUrl(), { retry: { limit: 2 }, logger });
    await expect(api.startRun('a', { message: 'hi' })).rejects.toMatchObject({ code: 'network' });
    expect(retries).toEqual([1, 2]);
  });

  it('account creation on a 503 → exactly one request: it may have created the account', async () => {
    server = await startScriptedServer(inOrder({ status: 503 }, { status: 200, body: { accountId: 5 } }));
    const { api } = testClient(server.url);
    await expect(
      api.createSubAccount({ email: 'a@example.test', accountName: 'a', retentionDays: 7 }),
    ).rejects.toMatchObject({ code: 'maintenance' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  it('is honoured in seconds and as an HTTP date, on every retryable status', async () => {
    server = await startScriptedServer((_request, index) => {
      if (index === 0) return { status: 503, headers: { 'retry-after': '0.4' } };
      if (index === 1) return { status: 502, headers: { 'retry-after': '0.3' } };
      // An HTTP date has whole seconds: two seconds ahead is at least one second's wait.
      if (index === 2)
        return { status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } };
      return ok;
    });
    const { api } = testClient(server.url, { retry: { baseDelayMs: 1 } });
    await api.getRunStatus('a', 's');
    const [first, second, third] = gaps(server);
    expect(first).toBeGreaterThanOrEqual(400 - SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(300 - SLACK_MS);
    expect(third).toBeGreaterThanOrEqual(1000 - SLACK_MS);
  });

  it('longer than maxRetryAfterMs: not waited for, the error is returned at once', async () => {
    server = await startScriptedServer(inOrder({ status: 503, headers: { 'retry-after': '120' } }, ok));
    const { api } = testClient(server.url, { retry: { maxRetryAfterMs: 30_000 } });
    const started = performance.now();
    await expect(api.getRunStatus('a', 's')).rejects.toMatchObject({
      code: 'maintenance',
      retryAfterMs: 120_000,
    });
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('a backoff wait holds no budget slot', () => {
  it('lets another request use the only slot while the first one waits to retry', async () => {
    server = await startScriptedServer((request, index) =>
      index === 0
        ? { status: 503, headers: { 'retry-after': '1' } }
        : request.path === '/v2/whoami'
          ? { status: 200, body: { accountId: 1, accountName: 'main' } }
          : ok,
    );
    const budget = createRequestBudget({ limit: 1 });
    const { api } = testClient(server.url, { budget });
    let polled = false;
    const poll = api.getRunStatus('a', 's').then((report) => {
      polled = true;
      return report;
    });
    await vi.waitFor(() => expect(server?.requests).toHaveLength(1));
    await expect(api.whoami()).resolves.toEqual({ accountId: 1, accountName: 'main' });
    // The identity call went through while the poll was still waiting for its retry.
    expect(polled).toBe(false);
    await expect(poll).resolves.toMatchObject({ status: 'loading' });
    expect(server.requests.map((request) => request.path)).toEqual([
      '/v2/ai-agent/a/s',
      '/v2/whoami',
      '/v2/ai-agent/a/s',
    ]);
    expect(budget.inFlight()).toBe(0);
  });

  it('a failed attempt that is not retried gives its slot back', async () => {
    server = await startScriptedServer(inOrder({ status: 400 }, { status: 200, body: listing }));
    const budget = createRequestBudget({ limit: 1 });
    const { api } = testClient(server.url, { budget });
    await expect(api.listSubAccounts()).rejects.toMatchObject({ code: 'rejected_request' });
    await expect(api.listSubAccounts()).resolves.toEqual([]);
    expect(budget.inFlight()).toBe(0);
  });
});
