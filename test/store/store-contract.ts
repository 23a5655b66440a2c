import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunStatusReport } from '../../src/conversation/ports.js';
import { digestReport } from '../../src/conversation/turn/report-digest.js';
import type { ThreadRecord, TurnRecord } from '../../src/conversation/turn/turn-records.js';
import { type StateStore, StoreClosedError, type StoreTtls } from '../../src/store/index.js';
import { describeAccountSlotsContract } from './account-slots-contract.js';
import { describeAllowanceContract } from './allowance-contract.js';
import { describeHomeStoreContract } from './home-store-contract.js';

/** How the contract suite reaches one implementation. */
export interface StoreHarness {
  /** A store on this test's state; in Redis, every store opened in one test shares the prefix. */
  open(options?: { ttl?: Partial<StoreTtls> }): Promise<StateStore>;
  /** Lets `ms` of store time pass (memory: moves the clock; Redis: really waits). */
  advance(ms: number): Promise<void>;
  /** Deletes what the test wrote and closes every store it opened. */
  teardown(): Promise<void>;
}

/** Short enough for Redis tests to wait out, long enough not to expire between two commands. */
const SHORT_TTL_MS = 150;

export function thread(overrides: Partial<ThreadRecord> = {}): ThreadRecord {
  return {
    threadKey: 'T1:C1:1700000000.000100',
    teamId: 'T1',
    channel: 'C1',
    threadTs: '1700000000.000100',
    agentId: 'agent-1',
    createdAt: 1,
    updatedAt: 2,
    ...overrides,
  };
}

export function turn(overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    turnId: 'turn-1',
    threadKey: 'T1:C1:1700000000.000100',
    teamId: 'T1',
    channel: 'C1',
    threadTs: '1700000000.000100',
    agentId: 'agent-1',
    userId: 'U1',
    sourceTs: '1700000000.000200',
    kind: 'start',
    phase: 'starting',
    startedAt: 10,
    deadlineAt: 20,
    ...overrides,
  };
}

/** The behaviour every `ConversationStore` must have, run against each implementation. */
export function describeStoreContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`${name}: ConversationStore contract`, () => {
    let harness: StoreHarness;
    let store: StateStore;

    beforeEach(async () => {
      harness = makeHarness();
      store = await harness.open();
    });
    afterEach(async () => {
      await harness.teardown();
    });

    describe('records', () => {
      it('round-trips a thread, including optional fields, and overwrites on save', async () => {
        expect(await store.getThread('T1:C1:nope')).toBeUndefined();
        const saved = thread({
          sessionId: 's-1',
          lastFinal: digestReport({ status: 'done', message: 'hi', totalSteps: 3 }),
        });
        await store.saveThread(saved);
        expect(await store.getThread(saved.threadKey)).toEqual(saved);

        await store.saveThread({ ...saved, sessionId: 's-2', updatedAt: 5 });
        expect(await store.getThread(saved.threadKey)).toMatchObject({ sessionId: 's-2', updatedAt: 5 });
      });

      it('returns copies, so mutating a read record does not change the store', async () => {
        await store.saveThread(thread());
        const read = await store.getThread(thread().threadKey);
        if (!read) throw new Error('thread missing');
        read.agentId = 'changed';
        expect((await store.getThread(thread().threadKey))?.agentId).toBe('agent-1');
      });

      it('round-trips a turn and deletes it', async () => {
        const saved = turn({
          kind: 'followUp',
          sessionId: 's-1',
          previousFinal: digestReport({ status: 'done' }),
        });
        await store.saveTurn(saved);
        expect(await store.getTurn(saved.turnId)).toEqual(saved);
        await store.deleteTurn(saved.turnId);
        expect(await store.getTurn(saved.turnId)).toBeUndefined();
      });

      it('reads a thread and a turn the previous version wrote (the whole final report) as digests', async () => {
        // Before digests, a thread kept its last answer's text for the stale rule, and a follow-up's turn too.
        const answer: RunStatusReport = {
          status: 'done',
          message: 'The deploy at noon broke it.',
          totalSteps: 4,
        };
        const legacyThread = { ...thread({ sessionId: 's-1' }), lastFinal: answer };
        const legacyTurn = { ...turn({ kind: 'followUp', sessionId: 's-1' }), previousFinal: answer };
        await store.saveThread(legacyThread as unknown as ThreadRecord);
        await store.saveTurn(legacyTurn as unknown as TurnRecord);

        const readThread = await store.getThread(legacyThread.threadKey);
        const readTurn = await store.getTurn(legacyTurn.turnId);
        expect(readThread).toEqual({ ...legacyThread, lastFinal: digestReport(answer) });
        expect(readTurn).toEqual({ ...legacyTurn, previousFinal: digestReport(answer) });
        // Saved again by this version, no text is left.
        if (!readThread || !readTurn) throw new Error('records missing');
        await store.saveThread(readThread);
        await store.saveTurn(readTurn);
        expect(JSON.stringify(await store.getThread(legacyThread.threadKey))).not.toContain('deploy');
        expect(JSON.stringify(await store.getTurn(legacyTurn.turnId))).not.toContain('deploy');
      });

      it.each([
        ['running', undefined, 'polling'],
        ['running', true, 'late'],
        ['starting', undefined, 'starting'],
      ] as const)(
        'reads a turn stored in phase %s (late: %s) by an earlier version as phase %s',
        async (phase, late, upgraded) => {
          // Before one phase vocabulary, a polled turn was `running`, with a `late` flag past its deadline.
          const legacyTurn = {
            ...turn({ sessionId: 's-1' }),
            phase,
            ...(late ? { late, watchUntil: 5 } : {}),
          };
          await store.saveTurn(legacyTurn as unknown as TurnRecord);
          const read = await store.getTurn(legacyTurn.turnId);
          expect(read?.phase).toBe(upgraded);
          expect(read && 'late' in read).toBe(false);
          if (late) expect(read?.watchUntil).toBe(5);
        },
      );

      it('indexes answers by channel and ts', async () => {
        const ref = { threadKey: 'T1:C1:1.1', agentId: 'a', sessionId: 's', turnId: 't' };
        await store.indexAnswer('C1', '1700000001.000100', ref);
        expect(await store.lookupAnswer('C1', '1700000001.000100')).toEqual(ref);
        expect(await store.lookupAnswer('C2', '1700000001.000100')).toBeUndefined();
        expect(await store.lookupAnswer('C1', '1700000001.000101')).toBeUndefined();
      });

      it("keeps a session's latest rating, false included", async () => {
        expect(await store.getRating('s-1')).toBeUndefined();
        await store.saveRating('s-1', true);
        await store.saveRating('s-1', false);
        expect(await store.getRating('s-1')).toBe(false);
        expect(await store.getRating('s-2')).toBeUndefined();
      });
    });

    describe('channel bindings', () => {
      it('round-trips, overwrites and deletes a binding, per channel', async () => {
        expect(await store.getChannelBinding('C1')).toBeUndefined();
        await store.saveChannelBinding('C1', { agentId: 'payments', boundBy: 'UADMIN', boundAt: 5 });
        expect(await store.getChannelBinding('C1')).toEqual({
          agentId: 'payments',
          boundBy: 'UADMIN',
          boundAt: 5,
        });
        expect(await store.getChannelBinding('C2')).toBeUndefined();
        await store.saveChannelBinding('C1', { agentId: 'search', boundBy: 'UOWNER', boundAt: 6 });
        expect((await store.getChannelBinding('C1'))?.agentId).toBe('search');
        await store.deleteChannelBinding('C1');
        expect(await store.getChannelBinding('C1')).toBeUndefined();
        await store.deleteChannelBinding('C1'); // resetting an unbound channel is harmless
      });

      it('keeps a binding past every record TTL (an admin set it; only an admin resets it)', async () => {
        const short = await harness.open({
          ttl: { threadMs: SHORT_TTL_MS, turnMs: SHORT_TTL_MS, answerMs: SHORT_TTL_MS },
        });
        await short.saveChannelBinding('C9', { agentId: 'payments', boundBy: 'UADMIN', boundAt: 1 });
        await harness.advance(SHORT_TTL_MS * 3);
        expect((await short.getChannelBinding('C9'))?.agentId).toBe('payments');
      });
    });

    describe('in-flight turns', () => {
      it('lists saved turns until they are deleted', async () => {
        expect(await store.listInFlightTurnIds()).toEqual([]);
        await store.saveTurn(turn({ turnId: 'a' }));
        await store.saveTurn(turn({ turnId: 'b' }));
        await store.saveTurn(turn({ turnId: 'a', phase: 'polling' })); // re-save: listed once
        expect((await store.listInFlightTurnIds()).sort()).toEqual(['a', 'b']);

        await store.deleteTurn('a');
        expect(await store.listInFlightTurnIds()).toEqual(['b']);
        await store.deleteTurn('missing'); // deleting an unknown turn is harmless
        expect(await store.listInFlightTurnIds()).toEqual(['b']);
      });
    });

    describe('expiry', () => {
      it('forgets threads, turns and answers after their TTLs, and drops expired turns from the list', async () => {
        const short = await harness.open({
          ttl: { threadMs: SHORT_TTL_MS, turnMs: SHORT_TTL_MS, answerMs: SHORT_TTL_MS },
        });
        const ref = { threadKey: 'k', agentId: 'a', sessionId: 's', turnId: 't' };
        await short.saveThread(thread());
        await short.saveTurn(turn());
        await short.indexAnswer('C1', '1.1', ref);
        expect(await short.listInFlightTurnIds()).toEqual(['turn-1']);

        await harness.advance(SHORT_TTL_MS + 100);
        expect(await short.getThread(thread().threadKey)).toBeUndefined();
        expect(await short.getTurn('turn-1')).toBeUndefined();
        expect(await short.lookupAnswer('C1', '1.1')).toBeUndefined();
        expect(await short.listInFlightTurnIds()).toEqual([]);
      });

      it('keeps records alive before their TTL', async () => {
        const short = await harness.open({ ttl: { threadMs: 2_000 } });
        await short.saveThread(thread());
        await harness.advance(SHORT_TTL_MS);
        expect(await short.getThread(thread().threadKey)).toEqual(thread());
      });
    });

    describe('locks', () => {
      it('is exclusive across owners and reports its owner', async () => {
        expect(await store.lockOwner('lease:turn-1')).toBeUndefined();
        expect(await store.tryLock('lease:turn-1', 'replica-a', 10_000)).toBe(true);
        expect(await store.tryLock('lease:turn-1', 'replica-b', 10_000)).toBe(false);
        expect(await store.lockOwner('lease:turn-1')).toBe('replica-a');
        expect(await store.tryLock('lease:turn-2', 'replica-b', 10_000)).toBe(true);
      });

      it('dedupes Slack messages: the second handler of channel:ts is refused', async () => {
        const mark = 'seen:C1:1700000000.000100';
        expect(await store.tryLock(mark, 'event-1', 3_600_000)).toBe(true);
        expect(await store.tryLock(mark, 'event-2', 3_600_000)).toBe(false);
        expect(await store.tryLock('seen:C1:1700000000.000101', 'event-2', 3_600_000)).toBe(true);
      });

      it('lets the owner take it again, which renews the expiry', async () => {
        expect(await store.tryLock('lease', 'a', SHORT_TTL_MS * 2)).toBe(true);
        await harness.advance(SHORT_TTL_MS);
        expect(await store.tryLock('lease', 'a', SHORT_TTL_MS * 2)).toBe(true);
        await harness.advance(SHORT_TTL_MS + 50); // past the first expiry, within the renewed one
        expect(await store.lockOwner('lease')).toBe('a');
        expect(await store.tryLock('lease', 'b', SHORT_TTL_MS)).toBe(false);
      });

      it('renews only for the owner and only while held', async () => {
        expect(await store.renewLock('lease', 'a', 10_000)).toBe(false);
        await store.tryLock('lease', 'a', SHORT_TTL_MS * 2);
        expect(await store.renewLock('lease', 'b', 10_000)).toBe(false);
        await harness.advance(SHORT_TTL_MS);
        expect(await store.renewLock('lease', 'a', SHORT_TTL_MS * 2)).toBe(true);
        await harness.advance(SHORT_TTL_MS + 50);
        expect(await store.lockOwner('lease')).toBe('a');
      });

      it('unlocks only for the owner', async () => {
        await store.tryLock('lease', 'a', 10_000);
        await store.unlock('lease', 'b');
        expect(await store.lockOwner('lease')).toBe('a');
        await store.unlock('lease', 'a');
        expect(await store.lockOwner('lease')).toBeUndefined();
        expect(await store.tryLock('lease', 'b', 10_000)).toBe(true);
        await store.unlock('never-held', 'a'); // harmless
      });

      it('expires, after which another owner takes over and the old owner cannot renew', async () => {
        await store.tryLock('lease', 'a', SHORT_TTL_MS);
        await harness.advance(SHORT_TTL_MS + 100);
        expect(await store.lockOwner('lease')).toBeUndefined();
        expect(await store.tryLock('lease', 'b', 10_000)).toBe(true);
        expect(await store.renewLock('lease', 'a', 10_000)).toBe(false);
        await store.unlock('lease', 'a');
        expect(await store.lockOwner('lease')).toBe('b');
      });

      it('gives a lock to exactly one of 50 concurrent callers', async () => {
        const owners = Array.from({ length: 50 }, (_, i) => `owner-${i}`);
        const results = await Promise.all(owners.map((owner) => store.tryLock('contended', owner, 10_000)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.lockOwner('contended')).toBe(owners[results.indexOf(true)]);
      });

      it('rejects a TTL that is not a positive integer', async () => {
        await expect(store.tryLock('lease', 'a', 0)).rejects.toThrow(RangeError);
        await expect(store.renewLock('lease', 'a', 1.5)).rejects.toThrow(RangeError);
      });
    });

    describeAllowanceContract(() => store);
    describeHomeStoreContract(
      () => store,
      (ms) => harness.advance(ms),
    );
    describeAccountSlotsContract(
      () => store,
      (ms) => harness.advance(ms),
    );

    it('answers ping, closes idempotently, and refuses calls once closed', async () => {
      await store.ping();
      await store.close();
      await store.close();
      await expect(store.getThread('k')).rejects.toThrow(StoreClosedError);
      await expect(store.saveTurn(turn())).rejects.toThrow(StoreClosedError);
      await expect(store.tryLock('x', 'a', 1000)).rejects.toThrow(StoreClosedError);
      await expect(
        store.takeAllowance('person:U1', { id: 'a', limit: 1, windowMs: 1000, now: 1 }),
      ).rejects.toThrow(StoreClosedError);
      await expect(store.ping()).rejects.toThrow(StoreClosedError);
      // Every other call too (App Home's records aside: they never were refused), whatever its arguments.
      const home = new Set([
        'noteRecentThread',
        'recentThreads',
        'tally',
        'weeklyTallies',
        'listBoundChannels',
        'listWatchedChannels',
        'noteAgentSeen',
        'agentsSeen',
      ]);
      const calls = Object.entries(store).filter(
        ([name, value]) => typeof value === 'function' && name !== 'close' && !home.has(name),
      ) as [string, () => Promise<unknown>][];
      expect(calls.length).toBeGreaterThan(40);
      for (const [name, call] of calls) {
        await expect(call(), name).rejects.toThrow(StoreClosedError);
      }
    });
  });
}
