import { type AgentApiOptions, createAgentApi, createRequestBudget } from '../../../src/agent-api/index.js';

/** Obviously fake tokens: nothing here is a real credential. */
export const FAKE_TOKEN = 'test-agent-token-not-real';
export const FAKE_ACCOUNT_TOKEN = 'test-account-token-not-real';

/**
 * A client against `url`. ky waits its backoff for real, so the jitter draw is fixed at 0.5 and
 * the default policy's first waits are 100, 200 and 400 ms.
 */
export function testClient(url: string, overrides: Partial<AgentApiOptions> = {}) {
  const budget = overrides.budget ?? createRequestBudget({ limit: 10 });
  const api = createAgentApi({
    baseUrl: url,
    token: FAKE_TOKEN,
    accountToken: FAKE_ACCOUNT_TOKEN,
    budget,
    random: () => 0.5,
    requestTimeoutMs: 2000,
    statusTimeoutMs: 2000,
    ...overrides,
  });
  return { api, budget };
}
