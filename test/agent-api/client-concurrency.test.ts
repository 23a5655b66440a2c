import { afterEach, describe, expect, it } from 'vitest';
import { createRequestBudget } from '../../src/agent-api/index.js';
import { testClient } from './support/client.js';
import { type ScriptedServer, startScriptedServer } from './support/scripted-server.js';

/** The request budget measured where it matters: concurrent requests arriving at a server. */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isPoll = /^GET \/v2\/ai-agent\/[^/]+\/[^/]+$/;

describe('request budget over real HTTP', () => {
  it('polls never exceed pollSlots while other calls still get through', async () => {
    let releasePolls!: () => void;
    const pollsReleased = new Promise<void>((resolve) => {
      releasePolls = resolve;
    });
    server = await startScriptedServer(
      (request) =>
        isPoll.test(`${request.method} ${request.path}`)
          ? { status: 200, body: { status: 'loading', totalSteps: 1 }, until: pollsReleased }
          : { status: 200, body: { accountId: 1, accountName: 'main' } },
      { poll: isPoll },
    );
    const budget = createRequestBudget({ limit: 10, pollShare: 0.5 });
    const { api } = testClient(server.url, { budget });

    const polls = Array.from({ length: 30 }, (_, index) => api.getRunStatus('agent', `session-${index}`));
    // Every poll slot is taken and 25 polls queue; the other slots still serve commands.
    const others = await Promise.all(Array.from({ length: 20 }, () => api.whoami()));
    expect(others).toHaveLength(20);
    expect([budget.inFlightPolls(), budget.queued()]).toEqual([budget.pollSlots, 25]);

    releasePolls();
    await Promise.all(polls);
    expect(server.requests).toHaveLength(50);
    expect(server.maxInFlightOf('poll')).toBe(5);
    expect(server.maxInFlight()).toBeLessThanOrEqual(budget.limit);
  });

  it('200 parallel calls of every kind stay within the cap', async () => {
    server = await startScriptedServer((request) =>
      isPoll.test(`${request.method} ${request.path}`)
        ? { status: 200, body: { status: 'timeout' }, delayMs: 4 }
        : { status: 200, body: [], delayMs: 4 },
    );
    const budget = createRequestBudget({ limit: 8 });
    const { api } = testClient(server.url, { budget });
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        index % 2 === 0
          ? api.getRunStatus('agent', `s-${index}`)
          : api.submitFeedback('agent', [{ sessionId: `s-${index}`, feedbackName: 'f', score: 1 }]),
      ),
    );
    expect(server.requests).toHaveLength(200);
    expect(server.maxInFlight()).toBeLessThanOrEqual(8);
    // The client did fill the cap, so the server-side bound above is a real test of it.
    expect(budget.maxInFlightSeen()).toBe(8);
  });
});
