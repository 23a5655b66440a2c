import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTurnLedger, lockNames } from '../../../src/conversation/turn/turn-ledger.js';
import type { ThreadRecord, TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { POLLED_TURN } from '../../support/turn-record.js';

// A turn stored before its run started: no session yet.
const TURN: TurnRecord = { ...POLLED_TURN, phase: 'starting', sessionId: undefined };
const THREAD: ThreadRecord = {
  threadKey: TURN.threadKey,
  teamId: 'T1',
  channel: 'C1',
  threadTs: TURN.threadTs,
  agentId: 'agent',
  createdAt: 0,
  updatedAt: 0,
};

function setUp(instanceId = 'i1') {
  const store = createMemoryStore();
  const ledger = createTurnLedger({ store, clock: { now: () => 42 }, instanceId });
  return { store, ledger };
}

describe('turn ledger', () => {
  it('hands out locks bound to their token: only the holder renews or releases', async () => {
    const { store, ledger } = setUp();
    const other = createTurnLedger({ store, clock: { now: () => 0 }, instanceId: 'i2' });
    expect(await ledger.lease('t1').take(5_000)).toBe(true);
    expect(await other.lease('t1').take(5_000)).toBe(false);
    expect(await other.lease('t1').renew(5_000)).toBe(false);
    await other.lease('t1').release();
    expect(await ledger.leaseHeld('t1')).toBe(true);
    await ledger.lease('t1').release();
    expect(await ledger.leaseHeld('t1')).toBe(false);
  });

  it('holds the thread by the turn id and tells who holds it', async () => {
    const { ledger } = setUp();
    expect(await ledger.threadLock(TURN.threadKey, 'turn-1').take(60_000)).toBe(true);
    expect(await ledger.threadLock(TURN.threadKey, 'turn-2').take(60_000)).toBe(false);
    expect(await ledger.turnHolding(TURN.threadKey)).toBeUndefined();
    await ledger.saveTurn(TURN);
    expect(await ledger.turnHolding(TURN.threadKey)).toEqual(TURN);
  });

  it('counts a Slack message once, whoever asks', async () => {
    const { ledger } = setUp();
    expect(await ledger.markSeen('C1', '1.000001', 'a')).toBe(true);
    expect(await ledger.markSeen('C1', '1.000001', 'b')).toBe(false);
  });

  it('clears a finished turn but keeps its delivered mark', async () => {
    const { store, ledger } = setUp();
    await ledger.saveTurn(TURN);
    await ledger.threadLock(TURN.threadKey, TURN.turnId).take(60_000);
    await ledger.lease(TURN.turnId).take(5_000);
    await ledger.deliveryClaim(TURN.turnId).take(5_000);
    await ledger.markDelivered(TURN.turnId);
    await ledger.clearTurn(TURN);
    expect(await store.getTurn(TURN.turnId)).toBeUndefined();
    expect(await store.listInFlightTurnIds()).toEqual([]);
    for (const name of [
      lockNames.thread(TURN.threadKey),
      lockNames.lease(TURN.turnId),
      lockNames.delivery(TURN.turnId),
    ])
      expect(await store.lockOwner(name)).toBeUndefined();
    expect(await ledger.isDelivered(TURN.turnId)).toBe(true);
  });

  it('writes the thread record: session, final report, run left open', async () => {
    const { store, ledger } = setUp();
    await ledger.createThread(THREAD);
    await ledger.saveSession(TURN, 's1');
    expect(await store.getThread(THREAD.threadKey)).toMatchObject({
      sessionId: 's1',
      lastTurnTs: TURN.sourceTs,
      updatedAt: 42,
    });
    const thread = (await store.getThread(THREAD.threadKey)) as ThreadRecord;
    await ledger.saveRunOpen(thread, 7);
    expect(await store.getThread(THREAD.threadKey)).toMatchObject({ runOpenSince: 7 });
    const open = (await store.getThread(THREAD.threadKey)) as ThreadRecord;
    const digest = { status: 'done', totalSteps: 1, messageSha256: 'ab' } as const;
    await ledger.saveFinal(open, digest);
    const final = await store.getThread(THREAD.threadKey);
    expect(final?.runOpenSince).toBeUndefined();
    expect(final?.lastFinal).toEqual(digest);
  });

  it('restores a session only the turn kept', async () => {
    const { store, ledger } = setUp();
    await ledger.createThread(THREAD);
    await ledger.restoreSession(THREAD.threadKey, 's9');
    await ledger.restoreSession(THREAD.threadKey, 's10');
    expect((await store.getThread(THREAD.threadKey))?.sessionId).toBe('s9');
  });
});

describe('the ledger is the one writer', () => {
  // Recursive: the turn modules live in src/conversation/turn/, beside the ledger, and a guard that
  // read only the top folder could not fail for them.
  const files = readdirSync('src/conversation', { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src/conversation', name));

  it('reads the turn modules beside the ledger (the guard sees the files that could offend)', () => {
    expect(files).toContain(join('src/conversation/turn/turn-runner.ts'));
    expect(files).toContain(join('src/conversation/turn/run-start.ts'));
  });

  it('no other conversation module takes a lock or writes a thread or turn record', () => {
    const writes = /\bstore\s*\.\s*(tryLock|renewLock|unlock|lockOwner|saveThread|saveTurn|deleteTurn)\b/;
    const offenders = files
      .filter((path) => path !== join('src/conversation/turn/turn-ledger.ts'))
      .filter((path) => writes.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
