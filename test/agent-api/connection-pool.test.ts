import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { testClient } from './support/client.js';

/** How ky's requests use connections: one keep-alive undici Agent per service, under the base address's path. */

let server: Server | undefined;
afterEach(async () => {
  const current = server;
  server = undefined;
  current?.closeAllConnections();
  await new Promise<void>((resolve) => (current ? current.close(() => resolve()) : resolve()));
});

async function countingServer() {
  const paths: string[] = [];
  let connections = 0;
  server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'loading', totalSteps: 1 }));
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths, connections: () => connections };
}

describe('the connection pool', () => {
  it('keeps connections alive: requests one after another do not each open one', async () => {
    const service = await countingServer();
    const { api } = testClient(service.url);
    for (let i = 0; i < 10; i += 1) await api.getRunStatus('a', `s-${i}`);
    expect(service.paths).toHaveLength(10);
    // The pool may open a second connection while the first is being released; never one per request.
    expect(service.connections()).toBeLessThanOrEqual(2);
  });

  it('opens no more connections than the request budget allows in flight', async () => {
    const service = await countingServer();
    const { api, budget } = testClient(service.url);
    await Promise.all(Array.from({ length: 40 }, (_, i) => api.getRunStatus('a', `s-${i}`)));
    expect(service.paths).toHaveLength(40);
    expect(service.connections()).toBeLessThanOrEqual(budget.limit);
  });

  it('sends every path under the base address’s own path', async () => {
    const service = await countingServer();
    const { api } = testClient(`${service.url}/region-eu/`);
    await api.getRunStatus('agent 1', 's-1');
    expect(service.paths).toEqual(['/region-eu/v2/ai-agent/agent%201/s-1']);
  });
});
