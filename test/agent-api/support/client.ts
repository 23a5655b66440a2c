import { type AgentApiOptions, createAgentApi, createRequestBudget } from '../../../src/agent-api/index.js';
import type { Clock } from '../../../src/conversation/ports.js';

/** Obviously fake tokens: nothing here is a real credential. */
export const FAKE_TOKEN = 'test-agent-token-not-real';
export const FAKE_ACCOUNT_TOKEN = 'test-account-token-not-real';

/** A clock whose sleeps are recorded and return at once (backoff without waiting). */
export function recordingClock(now = Date.parse('2030-01-01T00:00:00Z')) {
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
    },
  };
  return { clock, sleeps };
}

/** A client against `url` with fast, recorded backoff unless overridden. */
export function testClient(url: string, overrides: Partial<AgentApiOptions> = {}) {
  const { clock, sleeps } = recordingClock();
  const budget = overrides.budget ?? createRequestBudget({ limit: 10 });
  const api = createAgentApi({
    baseUrl: url,
    token: FAKE_TOKEN,
    accountToken: FAKE_ACCOUNT_TOKEN,
    budget,
    clock,
    random: () => 0.5,
    requestTimeoutMs: 2000,
    statusTimeoutMs: 2000,
    ...overrides,
  });
  return { api, sleeps, budget };
}
