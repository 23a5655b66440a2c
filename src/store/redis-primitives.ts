import { redisKey, storeKeys } from './keys.js';
import type { StorePrimitives } from './primitives.js';
import type { RedisClient } from './redis-connection.js';
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

/** KEYS[1] = in-flight set, KEYS[2] = the turn record. */
const PRUNE_IN_FLIGHT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return redis.call('SREM', KEYS[1], ARGV[1]) end
return 0`;

/** Locks and the in-flight set on a connected client, every key under `prefix::`. */
export function createRedisPrimitives(client: RedisClient, prefix: string): StorePrimitives {
  const key = (name: string) => redisKey(prefix, name);
  const lockKey = (name: string) => key(storeKeys.lock(name));
  const inFlightKey = key(storeKeys.inFlightTurns);

  const evalScript = (script: string, keys: string[], args: string[]) =>
    client.eval(script, { keys, arguments: args });

  return {
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
      await evalScript(PRUNE_IN_FLIGHT, [inFlightKey, key(storeKeys.turn(turnId))], [turnId]);
    },
    async ping() {
      await client.ping();
    },
    async close() {},
  };
}
