import { type AccountShareOptions, createAccountShare, type LeasedAccountShare } from './account-share.js';
import { createRequestBudget, type RequestBudget } from './request-budget.js';

/** The per-process cap, and with `leases` the account-wide one (fields as in AccountShareOptions). */
export type AccountBudgetsOptions = Pick<AccountShareOptions, 'processLimit'> & {
  /** AGENT_POLL_SHARE. */
  pollShare: number;
} & (
    | { leases?: undefined }
    | (Pick<AccountShareOptions, 'leases' | 'accountLimit' | 'ttlMs' | 'logger'> & {
        /** This process's name among the holders (INSTANCE_ID); made unique per process here. */
        instanceId: string;
      })
  );

/**
 * One request budget per service account (the service allows 100 concurrent requests each), so
 * accounts never hold up one another; with `leases`, shared across replicas (DESIGN "Redis beyond one node").
 */
export function createAccountBudgets(options: AccountBudgetsOptions) {
  // A restarted process with the same INSTANCE_ID must not inherit (or overwrite) the old grant.
  const holder = options.leases && `${options.instanceId}:${process.pid}:${Date.now().toString(36)}`;
  const budgets = new Map<string, { budget: RequestBudget; share: LeasedAccountShare | undefined }>();
  return {
    /** The budget of `accountKey` (never a token: it lands in the store), made on first use. */
    budgetFor(accountKey: string): RequestBudget {
      const known = budgets.get(accountKey);
      if (known) return known.budget;
      const share =
        options.leases && createAccountShare({ ...options, account: accountKey, holder: holder as string });
      const budget = createRequestBudget({
        limit: options.processLimit,
        pollShare: options.pollShare,
        ...(share ? { account: share } : {}),
      });
      budgets.set(accountKey, { budget, share });
      return budget;
    },
    /** Stops every budget's renewals and gives their slots back (shutdown). */
    async stop(): Promise<void> {
      await Promise.all([...budgets.values()].map(({ share }) => share?.stop()));
    },
  };
}

export type AccountBudgets = ReturnType<typeof createAccountBudgets>;
