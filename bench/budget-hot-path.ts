/**
 * `npx tsx bench/budget-hot-path.ts`: what the account share adds to every request's budget slot
 * (acquire + release, no waiting), against the per-process budget alone. The share only compares
 * numbers per request; the store is asked in batches (see src/budget/account-share.ts).
 */
import { createAccountBudgets } from '../src/budget/account-budgets.js';
import { createRequestBudget, type RequestBudget } from '../src/budget/request-budget.js';
import { createMemoryStore } from '../src/store/index.js';

const ROUNDS = 500_000;

async function nsPerSlot(budget: RequestBudget): Promise<number> {
  for (let i = 0; i < 10_000; i += 1) (await budget.acquire('poll')).release();
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i += 1) (await budget.acquire(i % 3 ? 'poll' : 'other')).release();
  return Math.round(((performance.now() - started) * 1e6) / ROUNDS);
}

const budgets = createAccountBudgets({
  leases: createMemoryStore(),
  instanceId: 'bench',
  accountLimit: 100,
  processLimit: 50,
  pollShare: 0.8,
  ttlMs: 15_000,
});
// Alternate, so a busy moment of the machine does not land on one side only.
for (let round = 1; round <= 3; round += 1) {
  const plain = await nsPerSlot(createRequestBudget({ limit: 50 }));
  const shared = await nsPerSlot(budgets.budgetFor('account'));
  process.stdout.write(
    `round ${round}: per-process budget ${plain} ns, with the account share ${shared} ns\n`,
  );
}
await budgets.stop();
