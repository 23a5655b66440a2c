import sinon from 'sinon';
import { afterEach, describe, expect, it } from 'vitest';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createTurnRecovery } from '../../../src/conversation/turn/turn-recovery.js';
import type { TurnRunner } from '../../../src/conversation/turn/turn-runner.js';
import { systemClock } from '../../../src/runtime/clock.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { POLLED_TURN } from '../../support/turn-record.js';

const TURN: TurnRecord = POLLED_TURN;
const LEASE = lockNames.lease(TURN.turnId);

/** Recovery on `instanceId` over `store`, with `runner` standing in for the turn runner. */
function recoveryOn(instanceId: string, store: ReturnType<typeof createMemoryStore>, runner: object) {
  return createTurnRecovery({
    store,
    runner: runner as TurnRunner,
    logger: silentLogger,
    settings: { instanceId, leaseTtlMs: 5_000 },
    ledger: createTurnLedger({ store, clock: systemClock, instanceId }),
  });
}

/** Recovery on instance i1, which polls TURN (its runner holds it). */
function setUp() {
  const store = createMemoryStore();
  const untrack = sinon.spy();
  const recovery = recoveryOn('i1', store, {
    tracking: () => [TURN.turnId],
    untrack,
    turnOf: (turnId: string) => (turnId === TURN.turnId ? TURN : undefined),
  });
  return { store, untrack, recovery };
}

describe('lease renewal', () => {
  afterEach(() => sinon.restore());

  it('renews a lease it holds', async () => {
    const { store, untrack, recovery } = setUp();
    await store.tryLock(LEASE, 'i1', 5_000);
    await recovery.renewLeases();
    expect(await store.lockOwner(LEASE)).toBe('i1');
    expect(untrack.called).toBe(false);
  });

  it('takes again a lease that lapsed with nobody holding it, and saves again the turn Redis came back without', async () => {
    // Redis was down longer than the lease, or restarted empty: no lease, no record, no in-flight entry.
    const { store, untrack, recovery } = setUp();
    await recovery.renewLeases();
    expect(untrack.called).toBe(false);
    expect(await store.lockOwner(LEASE)).toBe('i1');
    expect(await store.getTurn(TURN.turnId)).toMatchObject({ turnId: TURN.turnId, sessionId: 's1' });
    expect(await store.listInFlightTurnIds()).toEqual([TURN.turnId]);
  });

  it('stops polling a turn whose lease another instance took', async () => {
    const { store, untrack, recovery } = setUp();
    await store.tryLock(LEASE, 'i2', 5_000);
    await recovery.renewLeases();
    expect(untrack.calledOnceWith(TURN.turnId)).toBe(true);
    expect(await store.lockOwner(LEASE)).toBe('i2');
  });

  it('stops polling, and takes nothing, when the outcome was delivered by another instance after the lease lapsed', async () => {
    const { store, untrack, recovery } = setUp();
    await store.tryLock(lockNames.delivered(TURN.turnId), 'i2', 60_000);
    await recovery.renewLeases();
    expect(untrack.calledOnceWith(TURN.turnId)).toBe(true);
    expect(await store.lockOwner(LEASE)).toBeUndefined();
    expect(await store.getTurn(TURN.turnId)).toBeUndefined();
  });

  it('does not save again the record of a turn that finished while its lapsed lease was taken again', async () => {
    // The lease lapsed (Redis was down); the turn delivers and clears its records between the
    // renewal's delivered check and its take: the record is gone because the turn is over.
    const { store, untrack, recovery } = setUp();
    await store.saveTurn(TURN);
    const take = store.tryLock.bind(store);
    sinon.stub(store, 'tryLock').callsFake(async (name, token, ttlMs) => {
      if (name === LEASE) {
        await take(lockNames.delivered(TURN.turnId), 'i1', 60_000);
        await store.deleteTurn(TURN.turnId);
      }
      return take(name, token, ttlMs);
    });
    await recovery.renewLeases();
    expect(await store.getTurn(TURN.turnId)).toBeUndefined();
    expect(await store.listInFlightTurnIds()).toEqual([]);
    expect(untrack.called).toBe(false);
  });

  it('with the store down, rejects (logged by its timer) and keeps every turn', async () => {
    const { store, untrack, recovery } = setUp();
    sinon.stub(store, 'renewLock').rejects(new Error('The client is offline'));
    await expect(recovery.renewLeases()).rejects.toThrow('offline');
    expect(untrack.called).toBe(false);
  });
});

/** Recovery on instance i2, which polls nothing; TURN is in flight in the store with no lease. */
async function adopterWithOrphan() {
  const store = createMemoryStore();
  const takeOver = sinon.spy();
  const recovery = recoveryOn('i2', store, { tracking: () => [], takeOver });
  await store.saveTurn(TURN);
  return { store, takeOver, recovery };
}

describe('adopting orphans', () => {
  it('clears, and does not take over, a delivered turn whose instance stopped before clearing it', async () => {
    const { store, takeOver, recovery } = await adopterWithOrphan();
    await store.tryLock(lockNames.thread(TURN.threadKey), TURN.turnId, 60_000);
    await store.tryLock(lockNames.delivered(TURN.turnId), 'i1', 60_000);

    expect(await recovery.adoptOrphans()).toBe(0);
    expect(takeOver.called).toBe(false);
    expect(await store.listInFlightTurnIds()).toEqual([]);
    expect(await store.lockOwner(lockNames.thread(TURN.threadKey))).toBeUndefined();
    expect(await store.lockOwner(LEASE)).toBeUndefined();
  });

  it('takes over an undelivered turn with no live lease', async () => {
    const { store, takeOver, recovery } = await adopterWithOrphan();

    expect(await recovery.adoptOrphans()).toBe(1);
    expect(takeOver.calledOnce).toBe(true);
    expect(await store.lockOwner(LEASE)).toBe('i2');
  });
});
