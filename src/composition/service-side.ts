import { checkAgentService, createAccountBudgets } from '../agent-api/index.js';
import type { Config } from '../config/load-config.js';
import { createDefaultServiceClient, createServiceConnections } from '../connections/service-connections.js';
import type { Logger } from '../runtime/logger.js';
import { createStore } from '../store/index.js';
import type { BotContext } from './bot-context.js';
import { createServicePoller } from './service-polling.js';

/** The agent service check's bound at start-up, like the Slack token check's. */
const STARTUP_CHECK_MS = 10_000;

/**
 * The state store, then the agent service: the account's request budget is leased in the store
 * (DESIGN "Redis beyond one node") and every client counts against it. The service is checked
 * once; on failure what was opened is closed again.
 */
export async function openServiceSide(config: Config, logger: Logger) {
  const store = await createStore(config.state, logger);
  const budgets = createAccountBudgets({
    leases: store,
    instanceId: config.state.instanceId,
    accountLimit: config.agent.accountConcurrency,
    processLimit: config.agent.maxInFlight,
    pollShare: config.agent.pollShare,
    ttlMs: config.state.leaseTtlMs,
    logger,
  });
  const client = createDefaultServiceClient(config, logger, (key) => budgets.budgetFor(key));
  try {
    await checkAgentService(
      client.defaultApi,
      { baseUrl: config.agent.baseUrl, timeoutMs: Math.min(config.agent.requestTimeoutMs, STARTUP_CHECK_MS) },
      logger,
    );
  } catch (error) {
    await budgets.stop();
    await store.close();
    throw error;
  }
  return { store, budgets, ...client };
}

/** Once the bot's context is made: a client per connection (keyed by installation), and the poller. */
export function connectServices(ctx: BotContext, side: Awaited<ReturnType<typeof openServiceSide>>) {
  const { config, clock, logger } = ctx;
  const { factory, defaultApi, store } = side;
  const keyOf = ctx.tenancy.keyOf;
  const connections = createServiceConnections({ config, factory, defaultApi, store, logger, clock, keyOf });
  const poller = createServicePoller(ctx, { clients: connections.clients, slots: side.budget.pollSlots });
  return { connections, poller };
}
