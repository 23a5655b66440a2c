import { describe, expect, it } from 'vitest';
import { createMemoryStore, createStore, type StateStore } from '../../src/store/index.js';
import { describeStoreContract, turn } from './store-contract.js';

describeStoreContract('memory', () => {
  let now = 1_700_000_000_000;
  const stores: StateStore[] = [];
  return {
    async open(options) {
      const store = createMemoryStore({ clock: () => now, ...options });
      stores.push(store);
      return store;
    },
    async advance(ms) {
      now += ms;
    },
    async teardown() {
      await Promise.all(stores.map((store) => store.close()));
    },
  };
});

describe('memory store', () => {
  it('keeps separate instances apart (state is per process object)', async () => {
    const a = createMemoryStore();
    const b = createMemoryStore();
    await a.saveTurn(turn());
    expect(await b.listInFlightTurnIds()).toEqual([]);
    expect(await a.tryLock('x', 'a', 1000)).toBe(true);
    expect(await b.tryLock('x', 'b', 1000)).toBe(true);
  });

  it('uses the default TTLs: a thread outlives a turn', async () => {
    let now = 0;
    const store = createMemoryStore({ clock: () => now });
    await store.saveTurn(turn());
    await store.indexAnswer('C1', '1.1', { threadKey: 'k', agentId: 'a', sessionId: 's', turnId: 't' });
    now += 2 * 24 * 3600 * 1000 - 1;
    expect(await store.getTurn('turn-1')).toBeDefined();
    now += 1;
    expect(await store.getTurn('turn-1')).toBeUndefined();
    now += 28 * 24 * 3600 * 1000 - 1;
    expect(await store.lookupAnswer('C1', '1.1')).toBeDefined();
    now += 1;
    expect(await store.lookupAnswer('C1', '1.1')).toBeUndefined();
  });

  it('is what createStore picks without a Redis URL', async () => {
    const store = await createStore({ redisPrefix: 'bridge' });
    expect(store.kind).toBe('memory');
    await store.close();
  });

  it('refuses TTLs Redis would refuse', () => {
    expect(() => createMemoryStore({ ttl: { turnMs: 0 } })).toThrow(RangeError);
  });
});
