import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentApiError,
  createAgentApi,
  createRequestBudget,
  InvalidResponseError,
  RegionMismatchError,
} from '../../src/agent-api/index.js';
import { FAKE_TOKEN, testClient } from './support/client.js';
import { rejectionOf } from './support/rejection.js';
import {
  closedPortUrl,
  inOrder,
  type ReplyFor,
  type ScriptedServer,
  startScriptedServer,
} from './support/scripted-server.js';

/** Every error class of errors.ts, from exact statuses and bodies on a scripted server. */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(replyFor: ReplyFor, retryLimit = 0) {
  server = await startScriptedServer(replyFor);
  return testClient(server.url, { retry: { limit: retryLimit } }).api;
}

const serviceError = {
  errorCode: 'SOME_CODE',
  message: 'service says no',
  requestId: 'req-123',
  parameters: {},
};

const caught = (promise: Promise<unknown>) => rejectionOf(promise, AgentApiError);

describe('status translation', () => {
  it('401 → token_rejected with the service body captured', async () => {
    const api = await clientFor(inOrder({ status: 401, body: serviceError }));
    const error = await caught(api.getRunStatus('agent-1', 'session-1'));
    expect(error).toMatchObject({
      code: 'token_rejected',
      status: 401,
      serviceMessage: 'service says no',
      serviceErrorCode: 'SOME_CODE',
      requestId: 'req-123',
      method: 'GET',
      path: '/v2/ai-agent/agent-1/session-1',
    });
  });

  it('identity 403 {code, message} → token_rejected carrying "Insufficient privileges"', async () => {
    const api = await clientFor(
      inOrder({ status: 403, body: { code: 403, message: 'Insufficient privileges' } }),
    );
    const error = await caught(api.whoami());
    expect(error).toMatchObject({
      code: 'token_rejected',
      status: 403,
      serviceMessage: 'Insufficient privileges',
    });
  });

  it('404 means agent_disabled on run start, agent_unavailable on other agent calls, unknown_endpoint elsewhere, and "no feedback" on getFeedback', async () => {
    const api = await clientFor(inOrder({ status: 404, body: serviceError }));
    expect((await caught(api.startRun('agent-1', { message: 'hi' }))).code).toBe('agent_disabled');
    expect((await caught(api.getRunStatus('agent-1', 'nope'))).code).toBe('agent_unavailable');
    expect((await caught(api.followUp('agent-1', 'nope', { message: 'hi' }))).code).toBe('agent_unavailable');
    expect((await caught(api.enableAgent('agent-1'))).code).toBe('agent_unavailable');
    expect((await caught(api.disableAgent('agent-1'))).code).toBe('agent_unavailable');
    expect((await caught(api.whoami())).code).toBe('unknown_endpoint');
    await expect(api.getFeedback('agent-1', 'session-1')).resolves.toBeNull();
  });

  it.each([
    [409, 'turn_in_progress'],
    [429, 'rate_limited'],
    [503, 'maintenance'],
    [400, 'rejected_request'],
    [422, 'rejected_request'],
    [500, 'http_error'],
    [418, 'http_error'],
  ])('%i → %s', async (status, code) => {
    const api = await clientFor(inOrder({ status, body: serviceError }));
    const error = await caught(api.followUp('agent-1', 'session-1', { message: 'again' }));
    expect(error).toMatchObject({ code, status });
    if (code === 'rejected_request')
      expect(error).toMatchObject({ serviceErrorCode: 'SOME_CODE', serviceMessage: 'service says no' });
  });

  it('keeps Retry-After on a 429 for callers to quote', async () => {
    const api = await clientFor(inOrder({ status: 429, headers: { 'retry-after': '12' } }));
    expect(await caught(api.whoami())).toMatchObject({ code: 'rate_limited', retryAfterMs: 12_000 });
  });
});

describe('region mismatch is recognised by its text at any status', () => {
  const sentence = 'Account region us-east-1 differs from current server region eu-central-1';
  it.each([
    ['a 401 with plain text', { status: 401, body: sentence }],
    ['a 400 JSON error body', { status: 400, body: { errorCode: 'X', message: sentence } }],
    ['a 200 text body', { status: 200, body: sentence }],
  ])('%s', async (_name, reply) => {
    const api = await clientFor(inOrder(reply));
    const error = await caught(api.whoami());
    expect(error).toBeInstanceOf(RegionMismatchError);
    expect(error).toMatchObject({
      code: 'region_mismatch',
      accountRegion: 'us-east-1',
      serverRegion: 'eu-central-1',
    });
  });

  it('even on the 404 that getFeedback otherwise treats as "none"', async () => {
    const api = await clientFor(inOrder({ status: 404, body: sentence }));
    await expect(api.getFeedback('agent-1', 's')).rejects.toBeInstanceOf(RegionMismatchError);
  });
});

describe('responses that break the contract', () => {
  it('a non-JSON 2xx body → invalid_response', async () => {
    const api = await clientFor(inOrder({ status: 200, body: '<html>proxy page</html>' }));
    const error = await caught(api.whoami());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual(['(body): not JSON']);
  });

  it('a schema failure names the field and the rule', async () => {
    const api = await clientFor(inOrder({ status: 200, body: { status: 'started', sessionId: 42 } }));
    const error = (await caught(api.startRun('agent-1', { message: 'hi' }))) as InvalidResponseError;
    expect(error.code).toBe('invalid_response');
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatch(/^sessionId: .*string/);
  });

  it('an unknown run status is invalid, while status "timeout" is an ordinary result', async () => {
    const api = await clientFor(
      inOrder(
        { status: 200, body: { status: 'timeout', totalSteps: 2 } },
        { status: 200, body: { status: 'paused' } },
      ),
    );
    await expect(api.getRunStatus('a', 's')).resolves.toEqual({
      status: 'timeout',
      message: undefined,
      totalSteps: 2,
    });
    expect((await caught(api.getRunStatus('a', 's'))).message).toMatch(/status:/);
  });

  it('feedback records whose fields drift from the seed still count as stored', async () => {
    const drifted = { id: 7, score: '100', sessionId: null, extra: true };
    const api = await clientFor(
      inOrder(
        { status: 200, body: [drifted] },
        { status: 200, body: { unexpected: 'an object, not a list' } },
        { status: 204 },
        { status: 200, body: drifted },
      ),
    );
    const input = [{ sessionId: 's', feedbackName: 'f', score: true }];
    await expect(api.submitFeedback('a', input)).resolves.toEqual([
      { id: '7', score: undefined, sessionId: undefined, extra: true },
    ]);
    await expect(api.submitFeedback('a', input)).resolves.toEqual([]);
    await expect(api.submitFeedback('a', input)).resolves.toEqual([]);
    await expect(api.getFeedback('a', 's')).resolves.toMatchObject({ id: '7', extra: true });
  });
});

describe('error bodies in every shape the service uses', () => {
  it.each([
    ['{errorCode, message, …}', { errorCode: 'X', message: 'could not find sub account 12' }],
    ['{message}', { message: 'could not find sub account 12' }],
    ['{errorMessage}', { errorMessage: 'could not find sub account 12' }],
    ['a bare JSON string', JSON.stringify('could not find sub account 12')],
  ])('%s → serviceMessage and the error message', async (_shape, body) => {
    const api = await clientFor(inOrder({ status: 500, body }));
    const error = await caught(api.enableAgent('a'));
    expect(error.serviceMessage).toBe('could not find sub account 12');
    expect(error.message).toContain('could not find sub account 12');
  });
});

describe('failures without an HTTP answer', () => {
  it('connection refused → network', async () => {
    const { api } = testClient(await closedPortUrl(), { retry: { limit: 0 } });
    const error = await caught(api.whoami());
    expect(error.code).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('connection reset → network', async () => {
    const api = await clientFor(inOrder({ status: 200, reset: true }));
    expect((await caught(api.whoami())).code).toBe('network');
  });

  it('no answer within the timeout → timeout (per-call timeoutMs overrides the default)', async () => {
    const api = await clientFor(
      inOrder({ status: 200, body: { accountId: 1, accountName: 'a' }, delayMs: 1000 }),
    );
    const started = Date.now();
    const error = await caught(api.whoami({ timeoutMs: 50 }));
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a body that stalls after the headers → timeout, once the body has been idle that long', async () => {
    server = await startScriptedServer(
      inOrder({ status: 200, body: { accountId: 1, accountName: 'a' }, stallBody: true }),
    );
    const { api } = testClient(server.url, {
      retry: { limit: 0 },
      requestTimeoutMs: 200,
      statusTimeoutMs: 200,
    });
    const started = Date.now();
    expect((await caught(api.whoami())).code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a caller abort rejects with the caller’s reason, not a client error', async () => {
    const api = await clientFor(inOrder({ status: 200, body: { status: 'loading' }, delayMs: 1000 }));
    const controller = new AbortController();
    const pending = api.getRunStatus('a', 's', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('turn cancelled')), 20);
    await expect(pending).rejects.toThrow('turn cancelled');
  });

  it('account endpoints without an account token → not_configured, and no request', async () => {
    server = await startScriptedServer(inOrder({ status: 200, body: [] }));
    const api = createAgentApi({ baseUrl: server.url, token: FAKE_TOKEN, budget: createRequestBudget() });
    for (const call of [
      () => api.listSubAccounts(),
      () => api.createSubAccount({ email: 'a@example.test', accountName: 'a', retentionDays: 7 }),
      () => api.updateSubAccount(1, {} as never),
    ]) {
      expect((await caught(call())).code).toBe('not_configured');
    }
    expect(server.requests).toHaveLength(0);
  });
});

describe('the token stays secret', () => {
  it('appears in no error message, serialised error or log line', async () => {
    const lines: string[] = [];
    const log = (fields: object, message?: string) => lines.push(JSON.stringify({ ...fields, message }));
    const logger = { debug: log, info: log, warn: log, error: log, child: () => logger };
    server = await startScriptedServer(inOrder({ status: 503, body: serviceError }, { status: 401 }));
    const { api } = testClient(server.url, { logger, retry: { limit: 1 } });
    const error = await caught(api.whoami());
    const everything = [
      error.message,
      JSON.stringify(error),
      String(error.cause),
      error.stack,
      ...lines,
    ].join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(FAKE_TOKEN);
    expect(server.requests[0]?.headers['x-api-token']).toBe(FAKE_TOKEN);
  });
});
