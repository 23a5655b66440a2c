import sinon from 'sinon';
import { describe, expect, it } from 'vitest';
import { createSpending, HOUR_MS, type SpendingVerdict } from '../../../src/conversation/access/spending.js';
import type { PeopleDirectory } from '../../../src/conversation/context/context-ports.js';
import type { ConversationStore } from '../../../src/conversation/ports.js';
import { createMetrics } from '../../../src/metrics.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock } from '../../support/manual-clock.js';
import { memoryLogger } from '../../support/memory-log.js';

const T0 = Date.UTC(2026, 2, 1, 14, 0, 0);
const people: PeopleDirectory = {
  profile: async (userId) => (userId === 'UALICE' ? { name: 'alice', tz: 'America/New_York' } : undefined),
};

function spendingWith(
  runsPerHour: number,
  options: { store?: ConversationStore; people?: PeopleDirectory } = {},
) {
  const clock = createManualClock(T0);
  const store = options.store ?? createMemoryStore({ clock: () => clock.now() });
  const metrics = createMetrics({ defaultMetrics: false });
  const log = memoryLogger('debug');
  let ids = 0;
  const spending = createSpending({
    store,
    runsPerHour,
    clock,
    logger: log.logger,
    metrics,
    people: options.people ?? people,
    newId: () => `use-${++ids}`,
  });
  const overLimitCount = async () =>
    (await metrics.registry.getSingleMetric('sab_turns_over_limit_total')?.get())?.values[0]?.value ?? 0;
  return { spending, clock, log, overLimitCount };
}

function expectRefused(verdict: SpendingVerdict) {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict;
}

describe('spending: runs per person per rolling hour', () => {
  it('lets a person start the limit, then refuses with when they can ask again, their zone and the limit', async () => {
    const { spending, clock, overLimitCount } = spendingWith(2);
    expect((await spending.take('UALICE')).ok).toBe(true);
    await clock.advanceAsync(10 * 60_000);
    expect((await spending.take('UALICE')).ok).toBe(true);
    await clock.advanceAsync(60_000);
    const refused = expectRefused(await spending.take('UALICE'));
    expect(refused).toEqual({
      ok: false,
      refusal: 'over-limit',
      detail: { retryAt: T0 + HOUR_MS, limit: 2, timeZone: 'America/New_York' },
    });
    expect(await overLimitCount()).toBe(1);
  });

  it('counts each person apart', async () => {
    const { spending } = spendingWith(1);
    expect((await spending.take('UALICE')).ok).toBe(true);
    expect((await spending.take('UALICE')).ok).toBe(false);
    expect((await spending.take('UBOB')).ok).toBe(true);
  });

  it('rolls: a run counts for exactly one hour', async () => {
    const { spending, clock } = spendingWith(1);
    expect((await spending.take('UALICE')).ok).toBe(true);
    await clock.advanceAsync(HOUR_MS - 1);
    expect((await spending.take('UALICE')).ok).toBe(false);
    await clock.advanceAsync(1);
    expect((await spending.take('UALICE')).ok).toBe(true);
  });

  it('takes a given-back run off the count', async () => {
    const { spending } = spendingWith(1);
    const first = await spending.take('UALICE');
    if (!first.ok) throw new Error('expected a run');
    await first.giveBack();
    expect((await spending.take('UALICE')).ok).toBe(true);
    expect((await spending.take('UALICE')).ok).toBe(false);
  });

  it('says nothing of a zone it cannot look up: the refusal is then in UTC', async () => {
    const failing: PeopleDirectory = { profile: () => Promise.reject(new Error('users.info failed')) };
    const { spending } = spendingWith(1, { people: failing });
    await spending.take('UALICE');
    expect(expectRefused(await spending.take('UALICE')).detail.timeZone).toBeUndefined();
    const unknown = spendingWith(1);
    await unknown.spending.take('UNOBODY');
    expect(expectRefused(await unknown.spending.take('UNOBODY')).detail.timeZone).toBeUndefined();
  });

  it('logs who went over, without the prompt', async () => {
    const { spending, log } = spendingWith(1);
    await spending.take('UALICE');
    await spending.take('UALICE');
    expect(log.records()).toContainEqual(
      expect.objectContaining({ msg: 'person over the hourly run limit', userId: 'UALICE', limit: 1 }),
    );
  });

  it('with 0 counts nothing and never asks the store', async () => {
    const store = {
      takeAllowance: sinon.stub().rejects(new Error('must not be called')),
      returnAllowance: sinon.stub().rejects(new Error('must not be called')),
    } as unknown as ConversationStore;
    const { spending } = spendingWith(0, { store });
    for (let index = 0; index < 100; index += 1) expect((await spending.take('UALICE')).ok).toBe(true);
    expect((store.takeAllowance as sinon.SinonStub).called).toBe(false);
  });

  it('lets a store failure through on take, but only logs one on give-back', async () => {
    const real = createMemoryStore();
    const store = {
      takeAllowance: sinon.stub().callsFake((name, use) => real.takeAllowance(name, use)),
      returnAllowance: sinon.stub().rejects(new Error('redis offline')),
    } as unknown as ConversationStore;
    const { spending, log } = spendingWith(1, { store });
    const taken = await spending.take('UALICE');
    if (!taken.ok) throw new Error('expected a run');
    await expect(taken.giveBack()).resolves.toBeUndefined();
    expect(log.records()).toContainEqual(
      expect.objectContaining({ msg: 'could not give back a run allowance' }),
    );
    (store.takeAllowance as sinon.SinonStub).rejects(new Error('redis offline'));
    await expect(spending.take('UALICE')).rejects.toThrow('redis offline');
  });
});
