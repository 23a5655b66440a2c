import {
  SIM_TOKENS,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../../dev/simulator/index.js';
import { type AgentApiOptions, createAgentApi, createRequestBudget } from '../../../src/agent-api/index.js';

/** A quiet simulator with short long polls, so suites stay fast. */
export function startTestSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ port: 0, longPollMs: 150, quiet: true, ...options });
}

/** A client with the simulator's agent and main-account tokens and a fixed jitter draw. */
export function simClient(sim: Simulator, overrides: Partial<AgentApiOptions> = {}) {
  const budget = overrides.budget ?? createRequestBudget({ limit: 20 });
  const api = createAgentApi({
    baseUrl: sim.url,
    token: SIM_TOKENS.agent,
    accountToken: SIM_TOKENS.main,
    budget,
    random: () => 0.5,
    requestTimeoutMs: 3000,
    statusTimeoutMs: 3000,
    ...overrides,
  });
  return { api, budget };
}
