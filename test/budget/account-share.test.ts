import { describe, expect, it } from 'vitest';
import { type AccountSlotLeases, createAccountShare } from '../../src/budget/account-share.js';
import { createMemoryStore } from '../../src/store/index.js';
import { waitUntil } from '../support/child-bot.js';
import { memoryLogger } from '../support/memory-log.js';

/** One process's share of an account: leased in batches, shrunk when idle, kept while the store fails. */
describe('createAccountShare', () => {
  const options = { account: 'acct', holder: 'h1', accountLimit: 100, processLimit: 50, ttlMs: 300 };

  it('leases the demand plus a batch in one call, and gives everything back once idle', async () => {
    const store = createMemoryStore();
    const calls: number[] = [];
    const leases: AccountSlotLeases = {
      leaseAccountSlots: (account, holder, request) => {
        calls.push(request.want);
        return store.leaseAccountSlots(account, holder, request);
      },
      releaseAccountSlots: (account, holder) => store.releaseAccountSlots(account, holder),
    };
    const share = createAccountShare({ ...options, leases });
    for (let demand = 1; demand <= 7; demand += 1) share.demand(demand);
    await waitUntil(() => share.granted() >= 7, { description: 'the burst leased' });
    // Seven requests in a burst, two leases, not seven: the first demand plus a batch of 5 (a tenth
    // of 50), then — the demand having grown meanwhile — the seven plus a batch.
    // (Later calls are the renewals, every third of the TTL, asking for the same.)
    expect(calls.slice(0, 2)).toEqual([6, 12]);
    expect(new Set(calls.slice(2))).toEqual(new Set(calls.length > 2 ? [12] : []));
    expect(share.granted()).toBe(12);
    share.demand(0);
    await waitUntil(() => share.granted() === 0, {
      timeoutMs: 3_000,
      description: 'the idle share given back',
    });
    await share.stop();
  });

  it('keeps its last grant while the store fails, and says so once', async () => {
    let failing = false;
    const store = createMemoryStore();
    const leases: AccountSlotLeases = {
      leaseAccountSlots: async (account, holder, request) => {
        if (failing) throw new Error('store down');
        return store.leaseAccountSlots(account, holder, request);
      },
      releaseAccountSlots: async () => {},
    };
    const log = memoryLogger('warn');
    const share = createAccountShare({ ...options, leases, logger: log.logger });
    share.demand(3);
    await waitUntil(() => share.granted() === 8, { description: 'a grant of 3 + 5' });
    failing = true;
    share.demand(20);
    await waitUntil(() => log.records().length > 0, { description: 'the warning' });
    await waitUntil(() => log.records().length === 1 && share.granted() === 8, {
      description: 'the grant kept',
    });
    expect(log.records()[0]?.msg).toBe('account budget not leased; keeping the last grant');
    await share.stop();
  });
});
