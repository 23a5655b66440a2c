import { afterEach, describe, expect, it } from 'vitest';
import { AgentApiError, RedirectRefusedError } from '../../src/agent-api/index.js';
import { describeError } from '../../src/slack/views/describe-error.js';
import { testClient } from './support/client.js';
import { rejectionOf } from './support/rejection.js';
import { inOrder, type ScriptedServer, startScriptedServer } from './support/scripted-server.js';

/**
 * DESIGN "Service addresses": no request to the service follows a redirect. A loopback service
 * answers 3xx pointing at a second loopback server: the second one receives nothing (the token
 * never travels there) and the call fails with a coded error naming the answering address.
 */

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function redirecting(status: number) {
  const elsewhere = await startScriptedServer(
    inOrder({ status: 200, body: { accountId: 1, accountName: 'x' } }),
  );
  servers.push(elsewhere);
  const service = await startScriptedServer(
    inOrder({ status, headers: { location: `${elsewhere.url}/v2/whoami?stolen=1` } }),
  );
  servers.push(service);
  return { service, elsewhere };
}

describe('redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])(
    '%i → RedirectRefusedError; the other host gets nothing',
    async (status) => {
      const { service, elsewhere } = await redirecting(status);
      const api = testClient(service.url, { retry: { limit: 2 } }).api;
      const error = await rejectionOf(api.whoami(), AgentApiError);
      expect(error).toBeInstanceOf(RedirectRefusedError);
      expect(error).toMatchObject({
        code: 'redirected',
        status,
        address: service.url,
        location: elsewhere.url,
        method: 'GET',
        path: '/v2/whoami',
      });
      // Not retried either: the same address would answer the same.
      expect(service.requests).toHaveLength(1);
      expect(elsewhere.requests).toEqual([]);
    },
  );

  it('a run start redirected: nothing reaches the other host; the sentence names the address', async () => {
    const { service, elsewhere } = await redirecting(307);
    const api = testClient(service.url).api;
    const error = await rejectionOf(api.startRun('agent-1', { message: 'hi' }), AgentApiError);
    expect(elsewhere.requests).toEqual([]);
    const sentence = describeError(error, 'abcd1234');
    expect(sentence).toContain(service.url);
    expect(sentence).toMatch(/redirect \(HTTP 307\), which the bot never follows/);
    expect(sentence).not.toContain('stolen');
  });
});
