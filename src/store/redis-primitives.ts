import { assertAllowanceUse } from './allowance-use.js';
import { createRedisClaims } from './claims.js';
import { redisKey, type StoreKeys, storeKeys } from './keys.js';
import type { StorePrimitives } from './primitives.js';
import { createRedisAccountSlots } from './redis-account-slots.js';
import type { RedisCommands } from './redis-connection.js';
import { assertTtl } from './ttls.js';

/**
 * Lua runs atomically in Redis: no other command interleaves between the GET and the write, which a
 * read-then-write from here (or through keyv) cannot promise.
 */
const TRY_LOCK = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;

const RENEW_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * KEYS[1] = the allowance's sorted set (member: use id, score: its time);
 * ARGV = id, limit, windowMs, now. Returns {1} when the use is recorded, else {0, retryAt}:
 * the time the oldest use that keeps the set full leaves the window. One script, so two replicas
 * taking the last use at once cannot both get it; the key expires a window after its newest use.
 */
const TAKE_ALLOWANCE = `
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1}
end
local freeing = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, tonumber(freeing[2]) + window}`;

/**
 * Locks, the in-flight set, allowances and account slots on a connected client, Sentinel pool or
 * cluster, every key under `prefix::`. Every script names exactly one key: one slot in a cluster.
 */
export function createRedisPrimitives(
  client: RedisCommands,
  prefix: string,
  keys: StoreKeys = storeKeys,
): StorePrimitives {
  const key = (name: string) => redisKey(prefix, name);
  const lockKey = (name: string) => key(keys.lock(name));
  const inFlightKey = key(keys.inFlightTurns);
  const allowanceKey = (name: string) => key(keys.allowance(name));
  const turnKey = (turnId: string) => key(keys.turn(turnId));

  const evalScript = (script: string, keys: string[], args: string[]) =>
    client.eval(script, { keys, arguments: args });

  return {
    ...createRedisClaims(client, prefix, keys),
    async tryLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      return (await evalScript(TRY_LOCK, [lockKey(name)], [owner, String(ttlMs)])) === 1;
    },
    async renewLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      return (await evalScript(RENEW_LOCK, [lockKey(name)], [owner, String(ttlMs)])) === 1;
    },
    async unlock(name, owner) {
      await evalScript(UNLOCK, [lockKey(name)], [owner]);
    },
    async lockOwner(name) {
      return (await client.get(lockKey(name))) ?? undefined;
    },
    async addInFlight(turnId) {
      await client.sAdd(inFlightKey, turnId);
    },
    async removeInFlight(turnId) {
      await client.sRem(inFlightKey, turnId);
    },
    async inFlightIds() {
      return client.sMembers(inFlightKey);
    },
    async pruneInFlight(turnId) {
      // The set and the record sit in different slots of a cluster, so no one script sees both.
      // Remove, then look again: a save racing us wrote its record before adding the id, so either
      // the second look sees the record (and the id goes back) or its add comes after our remove.
      if ((await client.exists(turnKey(turnId))) !== 0) return;
      await client.sRem(inFlightKey, turnId);
      if ((await client.exists(turnKey(turnId))) !== 0) await client.sAdd(inFlightKey, turnId);
    },
    async takeAllowance(name, use) {
      assertAllowanceUse(use);
      const args = [use.id, String(use.limit), String(use.windowMs), String(use.now)];
      const [taken, retryAt] = (await evalScript(TAKE_ALLOWANCE, [allowanceKey(name)], args)) as number[];
      return taken === 1 ? { ok: true } : { ok: false, retryAt: Number(retryAt) };
    },
    async returnAllowance(name, id) {
      await client.zRem(allowanceKey(name), id);
    },
    ...createRedisAccountSlots(client, (account) => key(keys.accountSlots(account))),
    // The connection answers for health and closing (redis-store.ts).
    async ping() {},
    async close() {},
  };
}
