/**
 * The one place an agent-service client is built, for the default connection and for every
 * connection admins add (DESIGN "Many accounts"). Each account gets one request budget: the
 * service allows 100 concurrent requests per account, so two connections of one account share a
 * budget and connections of different accounts never hold up one another. `budgetFor` is the seam
 * a budget shared across replicas plugs into (DESIGN "Redis beyond one node").
 */
import {
  type AgentApi,
  createAgentApi,
  createRequestBudget,
  type RequestBudget,
} from '../agent-api/index.js';
import type { Config } from '../config/load-config.js';
import type { Logger } from '../runtime/logger.js';

/** What a client needs to know about its connection. The token is plain here: in memory only. */
export interface ConnectionSettings {
  alias: string;
  baseUrl: string;
  token: string;
  /** The account behind the token, when known (whoami at add time): the budget's key. */
  accountId?: number | undefined;
  /** Main-account token for the account commands: the default connection's ACCOUNT_API_TOKEN only. */
  accountToken?: string | undefined;
}

export interface AgentApiFactory {
  /** A new client for the connection, counting against its account's budget. */
  make(connection: ConnectionSettings): AgentApi;
  /** The connection's account's budget (the same object for every connection of one account). */
  budgetFor(connection: ConnectionSettings): RequestBudget;
}

export interface AgentApiFactoryOptions {
  agent: Config['agent'];
  logger: Logger;
  /** Default: one in-process budget per account, AGENT_MAX_IN_FLIGHT / AGENT_POLL_SHARE. */
  newBudget?: ((accountKey: string) => RequestBudget) | undefined;
}

/** The budget key: the account when known, else the alias (the default connection at start-up). */
export function accountKeyOf(connection: ConnectionSettings): string {
  return connection.accountId !== undefined
    ? `account:${new URL(connection.baseUrl).host}:${connection.accountId}`
    : `connection:${connection.alias}`;
}

export function createAgentApiFactory(options: AgentApiFactoryOptions): AgentApiFactory {
  const { agent, logger } = options;
  const newBudget =
    options.newBudget ??
    (() => createRequestBudget({ limit: agent.maxInFlight, pollShare: agent.pollShare }));
  const budgets = new Map<string, RequestBudget>();

  function budgetFor(connection: ConnectionSettings): RequestBudget {
    const key = accountKeyOf(connection);
    let budget = budgets.get(key);
    if (!budget) {
      budget = newBudget(key);
      budgets.set(key, budget);
    }
    return budget;
  }

  function make(connection: ConnectionSettings): AgentApi {
    return createAgentApi({
      baseUrl: connection.baseUrl,
      token: connection.token,
      accountToken: connection.accountToken,
      accountPathPrefix: agent.accountPathPrefix,
      budget: budgetFor(connection),
      requestTimeoutMs: agent.requestTimeoutMs,
      statusTimeoutMs: agent.statusTimeoutMs,
      logger: logger.child({ connection: connection.alias }),
    });
  }

  return { make, budgetFor };
}
