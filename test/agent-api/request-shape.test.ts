import { afterEach, describe, expect, it } from 'vitest';
import type { AgentApi } from '../../src/agent-api/index.js';
import type { AgentRunsPort } from '../../src/conversation/ports.js';
import { FAKE_ACCOUNT_TOKEN, FAKE_TOKEN, testClient } from './support/client.js';
import { inOrder, type ScriptedServer, startScriptedServer } from './support/scripted-server.js';

/** What goes on the wire: paths, tokens, headers and bodies exactly as the seed describes them. */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('requests on the wire', () => {
  it('the client is usable as the conversation layer’s port (checked by the compiler)', async () => {
    server = await startScriptedServer(
      inOrder({ status: 200, body: { status: 'done', message: 'hi', totalSteps: 1 } }),
    );
    const port: AgentRunsPort = testClient(server.url).api satisfies AgentApi;
    await expect(port.getRunStatus('a', 's')).resolves.toEqual({
      status: 'done',
      message: 'hi',
      totalSteps: 1,
    });
  });

  it('run start: the seed path, agent token, JSON body with context', async () => {
    server = await startScriptedServer(
      inOrder({ status: 200, body: { status: 'started', sessionId: 's-1' } }),
    );
    const { api } = testClient(server.url);
    await api.startRun('agent/with space', { message: 'hello', additionalContext: undefined });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/ai-agent/agent%2Fwith%20space' });
    expect(request?.headers['x-api-token']).toBe(FAKE_TOKEN);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toStrictEqual({ context: { message: 'hello' } });
  });

  it('GET and body-less POST carry the token but no content type', async () => {
    server = await startScriptedServer((request) =>
      request.method === 'GET'
        ? { status: 200, body: { status: 'loading' } }
        : { status: 200, body: { id: 'a', active: false } },
    );
    const { api } = testClient(server.url);
    await api.getRunStatus('a', 's');
    await api.disableAgent('a');
    expect(
      server.requests.map((request) => [
        request.method,
        request.path,
        request.headers['content-type'],
        request.body,
      ]),
    ).toEqual([
      ['GET', '/v2/ai-agent/a/s', undefined, ''],
      ['POST', '/v2/ai-agent/a/disable', undefined, ''],
    ]);
    expect(server.requests.every((request) => request.headers['x-api-token'] === FAKE_TOKEN)).toBe(true);
  });

  it('account endpoints use the main-account token; export uses the agent token', async () => {
    server = await startScriptedServer((request) =>
      request.path.endsWith('/export')
        ? { status: 200, body: { kibanaVersion: '7.10', hits: [] } }
        : { status: 204 },
    );
    const { api } = testClient(server.url);
    await api.updateSubAccount(12, {
      accountName: 'a',
      maxDailyGB: 1,
      retentionDays: 1,
      searchable: true,
      accessible: true,
      docSizeSetting: false,
      sharingObjectsAccounts: [3],
      utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
    });
    await api.exportSavedObjects('dashboard');
    const [put, exported] = server.requests;
    expect([put?.method, put?.path, put?.headers['x-api-token']]).toEqual([
      'PUT',
      '/account-management/time-based-accounts/12',
      FAKE_ACCOUNT_TOKEN,
    ]);
    expect([exported?.path, exported?.headers['x-api-token'], exported?.body]).toEqual([
      '/kibana/export',
      FAKE_TOKEN,
      '{"type":"dashboard"}',
    ]);
  });

  it('feedback leaves out an absent comment, so the service keeps the old one', async () => {
    server = await startScriptedServer(inOrder({ status: 200, body: [] }));
    const { api } = testClient(server.url);
    await api.submitFeedback('a', [
      { sessionId: 's', feedbackName: 'slack-reaction', score: true },
      { sessionId: 't', feedbackName: 'slack-reaction', score: 50, comment: 'ok' },
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toStrictEqual([
      { sessionId: 's', feedbackName: 'slack-reaction', score: true },
      { sessionId: 't', feedbackName: 'slack-reaction', score: 50, comment: 'ok' },
    ]);
  });

  it('reports every attempt to the metrics hook', async () => {
    server = await startScriptedServer(
      inOrder({ status: 503 }, { status: 200, body: { accountId: 1, accountName: 'x' } }),
    );
    const seen: unknown[] = [];
    const { api } = testClient(server.url, {
      onRequest: (info) => seen.push({ ...info, ms: typeof info.ms }),
    });
    await api.whoami();
    expect(seen).toEqual([
      { endpoint: 'whoami', status: 503, errorCode: 'maintenance', ms: 'number' },
      { endpoint: 'whoami', status: 200, errorCode: undefined, ms: 'number' },
    ]);
  });
});
