import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore, createRedisStore, type StateStore } from '../../src/store/index.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { openInspector } from './redis-test-client.js';

/** The claims alert dedupe and cooldown stand on, alike in memory and in Redis. */
const hasRedis = await redisAvailable();

function describeClaims(
  kind: string,
  open: () => Promise<{ store: StateStore; advance(ms: number): Promise<void> }>,
) {
  describe(`claims (${kind})`, () => {
    it('are taken once; a loser reads what the winner holds, settled or not', async () => {
      const { store } = await open();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          store.claim('alert-event:C1:abc', `pending-${index}`, 60_000),
        ),
      );
      const winners = results.filter((result) => result.claimed);
      expect(winners).toHaveLength(1);
      const winner = `pending-${results.findIndex((result) => result.claimed)}`;
      expect(
        results
          .filter((result) => !result.claimed)
          .every((result) => !result.claimed && result.value === winner),
      ).toBe(true);

      expect(await store.settleClaim('alert-event:C1:abc', 'someone-else', 'x')).toBe(false);
      expect(await store.settleClaim('alert-event:C1:abc', winner, '{"ts":"1.2"}')).toBe(true);
      expect(await store.readClaim('alert-event:C1:abc')).toBe('{"ts":"1.2"}');
      expect(await store.claim('alert-event:C1:abc', 'late', 60_000)).toEqual({
        claimed: false,
        value: '{"ts":"1.2"}',
      });
    });

    it('are released only by their holder, and expire', async () => {
      const { store, advance } = await open();
      await store.claim('cool', 'mine', 60_000);
      await store.releaseClaim('cool', 'not-mine');
      expect(await store.readClaim('cool')).toBe('mine');
      await store.releaseClaim('cool', 'mine');
      expect(await store.claim('cool', 'again', 200)).toEqual({ claimed: true });
      // Settling keeps the expiry: it does not make the claim live longer.
      expect(await store.settleClaim('cool', 'again', 'settled')).toBe(true);
      await advance(300);
      expect(await store.readClaim('cool')).toBeUndefined();
      expect(await store.claim('cool', 'fresh', 60_000)).toEqual({ claimed: true });
    });
  });
}

describeClaims('memory', async () => {
  let now = 1_000_000;
  const store = createMemoryStore({ clock: () => now });
  return {
    store,
    advance: async (ms) => {
      now += ms;
    },
  };
});

describe.skipIf(!hasRedis)('redis', () => {
  const prefix = uniqueRedisPrefix('claims');
  const stores: StateStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    const inspector = await openInspector();
    for (const index of stores.keys()) await inspector.deleteAll(`${prefix}-${index}`);
    await inspector.close();
  });
  describeClaims('redis', async () => {
    const store = await createRedisStore({ url: TEST_REDIS_URL, prefix: `${prefix}-${stores.length}` });
    stores.push(store);
    return { store, advance: (ms) => sleep(ms) };
  });
});
