import type { Logger } from '../runtime/logger.js';
import { type AccountSlotLeases, createAccountShare, type LeasedAccountShare } from './account-share.js';
import { createRequestBudget, type RequestBudget } from './request-budget.js';

/**
 * One request budget per service account (DESIGN "Redis beyond one node"): each holds at most
 * `processLimit` requests in flight in this process and, across every replica on the store, at
 * most `accountLimit` for its account. A service connection (a token of its own) asks for its
 * account's budget by key; every connection to the same account shares one.
 */
export interface AccountBudgets {
  /**
   * The budget of `accountKey`, made on first use. The key names the account, never its token: the
   * connections' client factory makes it (`accountKeyOf` in connections/agent-api-factory.ts).
   */
  budgetFor(accountKey: string): RequestBudget;
  /** Stops every budget's renewals and gives their slots back (shutdown). */
  stop(): Promise<void>;
}

export interface AccountBudgetsOptions {
  /** The store's slot leases; memory and Redis both implement them. */
  leases: AccountSlotLeases;
  /** This process's name among the holders (INSTANCE_ID); made unique per process here. */
  instanceId: string;
  /** AGENT_ACCOUNT_CONCURRENCY. */
  accountLimit: number;
  /** AGENT_MAX_IN_FLIGHT: the per-process cap beneath it. */
  processLimit: number;
  /** AGENT_POLL_SHARE. */
  pollShare: number;
  /** How long a replica's slots outlive its last renewal (LEASE_TTL_MS). */
  ttlMs: number;
  logger?: Logger | undefined;
}

export function createAccountBudgets(options: AccountBudgetsOptions): AccountBudgets {
  // A restarted process with the same INSTANCE_ID must not inherit (or overwrite) the old grant.
  const holder = `${options.instanceId}:${process.pid}:${Date.now().toString(36)}`;
  const budgets = new Map<string, { budget: RequestBudget; share: LeasedAccountShare }>();
  return {
    budgetFor(accountKey) {
      const known = budgets.get(accountKey);
      if (known) return known.budget;
      const share = createAccountShare({
        leases: options.leases,
        account: accountKey,
        holder,
        accountLimit: options.accountLimit,
        processLimit: options.processLimit,
        ttlMs: options.ttlMs,
        logger: options.logger,
      });
      const budget = createRequestBudget({
        limit: options.processLimit,
        pollShare: options.pollShare,
        account: share,
      });
      budgets.set(accountKey, { budget, share });
      return budget;
    },
    async stop() {
      await Promise.all([...budgets.values()].map(({ share }) => share.stop()));
    },
  };
}
