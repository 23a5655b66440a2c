/** The one place an agent-service client is built, each counting against its account's budget. */
import { type AgentApi, createAgentApi } from '../agent-api/index.js';
import { createAccountBudgets } from '../budget/account-budgets.js';
import type { RequestBudget } from '../budget/request-budget.js';
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

/** The budget key: the account when known, else the alias (the default connection at start-up). */
export function accountKeyOf(connection: ConnectionSettings): string {
  return connection.accountId !== undefined
    ? `account:${new URL(connection.baseUrl).host}:${connection.accountId}`
    : `connection:${connection.alias}`;
}

/** `newBudget`: an account key's budget (AccountBudgets.budgetFor); default in-process budgets only. */
export function createAgentApiFactory(options: {
  agent: Config['agent'];
  logger: Logger;
  newBudget?: ((accountKey: string) => RequestBudget) | undefined;
}) {
  const { agent, logger } = options;
  const newBudget =
    options.newBudget ??
    createAccountBudgets({ processLimit: agent.maxInFlight, pollShare: agent.pollShare }).budgetFor;
  const budgetFor = (connection: ConnectionSettings) => newBudget(accountKeyOf(connection));

  const make = (connection: ConnectionSettings): AgentApi =>
    createAgentApi({
      baseUrl: connection.baseUrl,
      token: connection.token,
      accountToken: connection.accountToken,
      accountPathPrefix: agent.accountPathPrefix,
      budget: budgetFor(connection),
      requestTimeoutMs: agent.requestTimeoutMs,
      statusTimeoutMs: agent.statusTimeoutMs,
      logger: logger.child({ connection: connection.alias }),
    });
  return { make, budgetFor };
}

/** `make`: a connection's new client; `budgetFor`: its account's budget (one object per account). */
export type AgentApiFactory = ReturnType<typeof createAgentApiFactory>;
