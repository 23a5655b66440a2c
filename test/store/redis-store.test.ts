import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore, createStore, type StateStore, StoreConnectError } from '../../src/store/index.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';
import { openInspector } from './redis-test-client.js';
import { describeStoreContract, thread, turn } from './store-contract.js';

const hasRedis = await redisAvailable();

describe.skipIf(!hasRedis)('redis', () => {
  let inspector: Awaited<ReturnType<typeof openInspector>>;
  beforeAll(async () => {
    inspector = await openInspector();
  });
  afterAll(async () => {
    await inspector.close();
  });

  describeStoreContract('redis', () => {
    const prefix = uniqueRedisPrefix('store');
    const stores: StateStore[] = [];
    return {
      async open(options) {
        const store = await createRedisStore({ url: TEST_REDIS_URL, prefix, ...options });
        stores.push(store);
        return store;
      },
      advance: (ms) => sleep(ms),
      async teardown() {
        await Promise.all(stores.map((store) => store.close()));
        await inspector.deleteAll(prefix);
      },
    };
  });

  describe('redis store', () => {
    const opened: { prefix: string; stores: StateStore[] }[] = [];
    async function open(prefix: string): Promise<StateStore> {
      const store = await createRedisStore({ url: TEST_REDIS_URL, prefix });
      let entry = opened.find((o) => o.prefix === prefix);
      if (!entry) {
        entry = { prefix, stores: [] };
        opened.push(entry);
      }
      entry.stores.push(store);
      return store;
    }
    afterAll(async () => {
      for (const { prefix, stores } of opened) {
        await Promise.all(stores.map((store) => store.close()));
        await inspector.deleteAll(prefix);
      }
    });

    it('shares state between instances on one prefix, as replicas do', async () => {
      const prefix = uniqueRedisPrefix('replicas');
      const [a, b] = await Promise.all([open(prefix), open(prefix)]);
      await a.saveThread(thread());
      await a.saveTurn(turn());
      expect(await b.getThread(thread().threadKey)).toEqual(thread());
      expect(await b.listInFlightTurnIds()).toEqual(['turn-1']);

      expect(await a.tryLock('lease:turn-1', 'replica-a', 10_000)).toBe(true);
      expect(await b.tryLock('lease:turn-1', 'replica-b', 10_000)).toBe(false);
      expect(await b.lockOwner('lease:turn-1')).toBe('replica-a');

      await b.deleteTurn('turn-1');
      expect(await a.listInFlightTurnIds()).toEqual([]);
    });

    it('gives a lock to exactly one of 50 callers spread over two instances', async () => {
      const prefix = uniqueRedisPrefix('contend');
      const stores = await Promise.all([open(prefix), open(prefix)]);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => stores[i % 2]?.tryLock('contended', `owner-${i}`, 10_000)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('keeps instances on different prefixes apart', async () => {
      const a = await open(uniqueRedisPrefix('apart-a'));
      const b = await open(uniqueRedisPrefix('apart-b'));
      await a.saveTurn(turn());
      await a.tryLock('x', 'a', 10_000);
      expect(await b.listInFlightTurnIds()).toEqual([]);
      expect(await b.tryLock('x', 'b', 10_000)).toBe(true);
    });

    it('lays keys out as prefix::name with the configured TTLs', async () => {
      const prefix = uniqueRedisPrefix('layout');
      const store = await open(prefix);
      await store.saveThread(thread());
      await store.saveTurn(turn());
      await store.indexAnswer('C1', '1.1', { threadKey: 'k', agentId: 'a', sessionId: 's', turnId: 't' });
      await store.tryLock('seen:C1:1.1', 'event-1', 3_600_000);

      expect(await inspector.keys(prefix)).toEqual(
        [
          `${prefix}::answer:C1:1.1`,
          `${prefix}::lock:seen:C1:1.1`,
          `${prefix}::thread:${thread().threadKey}`,
          `${prefix}::turn:turn-1`,
          `${prefix}::turns:in-flight`,
        ].sort(),
      );
      const { client } = inspector;
      expect(await client.get(`${prefix}::lock:seen:C1:1.1`)).toBe('event-1');
      expect(await client.type(`${prefix}::turns:in-flight`)).toBe('set');
      // keyv stores JSON: {"value": record, "expires": …}
      const raw = JSON.parse((await client.get(`${prefix}::turn:turn-1`)) ?? 'null');
      expect(raw.value).toEqual(turn());

      const day = 24 * 3600 * 1000;
      const near = (ms: number) => expect.closeTo(ms, -4); // within ~5 s
      expect(await client.pTTL(`${prefix}::thread:${thread().threadKey}`)).toEqual(near(30 * day));
      expect(await client.pTTL(`${prefix}::turn:turn-1`)).toEqual(near(2 * day));
      expect(await client.pTTL(`${prefix}::answer:C1:1.1`)).toEqual(near(30 * day));
      expect(await client.pTTL(`${prefix}::lock:seen:C1:1.1`)).toEqual(near(3_600_000));
      // The in-flight set has no TTL: members leave through deleteTurn or pruning.
      expect(await client.pTTL(`${prefix}::turns:in-flight`)).toBe(-1);
    });

    it('counts one allowance across two instances, in a sorted set under the prefix that expires a window after its newest use', async () => {
      const prefix = uniqueRedisPrefix('allowance');
      const [a, b] = await Promise.all([open(prefix), open(prefix)]);
      const now = Date.now();
      const use = (store: StateStore, id: string) =>
        store.takeAllowance('person:U1', { id, limit: 2, windowMs: 60_000, now });
      expect(await use(a, 'a1')).toEqual({ ok: true });
      expect(await use(b, 'b1')).toEqual({ ok: true });
      expect(await use(a, 'a2')).toEqual({ ok: false, retryAt: now + 60_000 });

      const key = `${prefix}::allowance:person:U1`;
      expect(await inspector.keys(prefix)).toEqual([key]);
      expect(await inspector.client.type(key)).toBe('zset');
      expect(await inspector.client.zRange(key, 0, -1)).toEqual(['a1', 'b1'].sort());
      expect(await inspector.client.pTTL(key)).toEqual(expect.closeTo(60_000, -4));
      await b.returnAllowance('person:U1', 'a1');
      expect(await inspector.client.zRange(key, 0, -1)).toEqual(['b1']);
    });

    it('is what createStore picks with a Redis URL', async () => {
      const prefix = uniqueRedisPrefix('factory');
      const store = await createStore({ redisUrl: TEST_REDIS_URL, redisPrefix: prefix });
      opened.push({ prefix, stores: [store] });
      expect(store.kind).toBe('redis');
      await store.ping();
    });
  });
});

// These need no Redis: they check that start-up fails fast and clearly when Redis is not there.
describe('redis store connection failures', () => {
  it('fails fast with a clear error when nothing listens on the port', async () => {
    const started = Date.now();
    const attempt = createRedisStore({ url: 'redis://127.0.0.1:1', prefix: 'p', connectTimeoutMs: 2000 });
    await expect(attempt).rejects.toThrow(StoreConnectError);
    await expect(attempt).rejects.toThrow(/Redis at 127\.0\.0\.1:1 is not reachable/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('times out when the server accepts but never answers, and keeps the password out of the message', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = Date.now();
      const error = await createRedisStore({
        url: `redis://:hunter2@127.0.0.1:${port}`,
        prefix: 'p',
        connectTimeoutMs: 300,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreConnectError);
      expect((error as StoreConnectError).code).toBe('STORE_CONNECT_FAILED');
      expect((error as Error).message).toContain(`127.0.0.1:${port}`);
      expect((error as Error).message).toContain('300 ms');
      expect((error as Error).message).not.toContain('hunter2');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
