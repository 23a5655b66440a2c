import { afterEach, describe, expect, it } from 'vitest';
import { type AccountBudgets, createAccountBudgets } from '../../src/budget/account-budgets.js';
import type { BudgetSlot } from '../../src/budget/request-budget.js';
import { createMemoryStore } from '../../src/store/index.js';
import { waitUntil } from '../support/child-bot.js';

/**
 * The account's budget shared by "replicas" (two sets of budgets on one store, as two processes on
 * one Redis would be): never more slots held than the account allows, slots move to whoever needs
 * them, and a stopped replica's slots are free at once.
 */
describe('createAccountBudgets', () => {
  const store = createMemoryStore();
  let replicas: AccountBudgets[] = [];
  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    replicas = [];
  });

  const replica = (instanceId: string, accountLimit = 4, processLimit = 4) => {
    const budgets = createAccountBudgets({
      leases: store,
      instanceId,
      accountLimit,
      processLimit,
      pollShare: 0.5,
      ttlMs: 300,
    });
    replicas.push(budgets);
    return budgets;
  };

  it('gives every user of one account key the same budget', () => {
    expect(replica('a').budgetFor('acct')).toBe(replicas[0]?.budgetFor('acct'));
    expect(replicas[0]?.budgetFor('other-acct')).not.toBe(replicas[0]?.budgetFor('acct'));
  });

  it('holds at most the account limit across replicas, and moves slots to the one that needs them', async () => {
    const a = replica('a').budgetFor('acct');
    const b = replica('b').budgetFor('acct');
    const held: BudgetSlot[] = await Promise.all([1, 2, 3, 4].map(() => a.acquire('other')));
    let bGot: BudgetSlot | undefined;
    const waiting = b.acquire('other').then((slot) => {
      bGot = slot;
      return slot;
    });
    // The account is full: B waits while A holds all four.
    expect([a.inFlight(), b.inFlight(), b.queued()]).toEqual([4, 0, 1]);
    // A gives two back; its next renewal shrinks its grant and B's lease finds the room.
    held.pop()?.release();
    held.pop()?.release();
    await waitUntil(() => bGot, { timeoutMs: 3_000, description: 'B getting a slot' });
    expect(a.inFlight() + b.inFlight()).toBeLessThanOrEqual(4);
    (await waiting).release();
    for (const slot of held) slot.release();
  });

  it("frees a stopped replica's slots at once and keeps accounts apart", async () => {
    const first = replica('a');
    const a = first.budgetFor('acct');
    const held = await Promise.all([1, 2, 3, 4].map(() => a.acquire('other')));
    // Another account is not touched by this one being full.
    const other = await replica('c').budgetFor('other-acct').acquire('other');
    other.release();
    for (const slot of held) slot.release();
    await first.stop();
    const b = replica('b').budgetFor('acct');
    const all = await Promise.all([1, 2, 3, 4].map(() => b.acquire('other')));
    expect(b.inFlight()).toBe(4);
    for (const slot of all) slot.release();
  });

  it('keeps the poll share within what was granted, leaving room for other requests', async () => {
    const budget = replica('a', 4, 4).budgetFor('acct');
    const polls = [budget.acquire('poll'), budget.acquire('poll'), budget.acquire('poll')];
    await waitUntil(() => budget.inFlightPolls() === 2, { description: 'two polls running' });
    // Half of four for polls: the third waits, a run start still goes.
    const start = await budget.acquire('other');
    expect([budget.inFlightPolls(), budget.inFlight()]).toEqual([2, 3]);
    start.release();
    for (const slot of await Promise.all(polls.slice(0, 2))) slot.release();
    (await polls[2])?.release();
  });
});
