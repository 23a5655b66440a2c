import type { ClaimStore } from '../alerts/alert-ports.js';
import { ExpiringMap } from './expiring-map.js';
import { redisKey, type StoreKeys } from './keys.js';
import { type RedisCommands, runScript } from './redis-connection.js';
import { assertTtl } from './ttls.js';

/** KEYS[1] = the claim; ARGV = value, ttlMs. {1} when taken, else {0, value held}. */
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1} end
return {0, redis.call('GET', KEYS[1])}`;

/** KEYS[1] = the claim; ARGV = from, to. Keeps the remaining expiry. */
const SETTLE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
return 1`;

/** KEYS[1] = a claim or lock; ARGV[1] = its holder's value. Deletes it only while that holder's. */
export const DELETE_IF_HELD = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Once-only claims with a value settled later (alert dedupe and cooldown marks), each write one Lua
 * script: two replicas cannot both win, and a settle or release never touches another's claim.
 */
export function createRedisClaims(client: RedisCommands, prefix: string, keys: StoreKeys): ClaimStore {
  const key = (name: string) => redisKey(prefix, keys.claim(name));
  return {
    async claim(name, value, ttlMs) {
      assertTtl(ttlMs);
      const answer = await runScript(client, CLAIM, key(name), [value, String(ttlMs)]);
      const [taken, held] = answer as [number, string?];
      return taken === 1 ? { claimed: true } : { claimed: false, value: held ?? '' };
    },
    async readClaim(name) {
      return (await client.get(key(name))) ?? undefined;
    },
    async settleClaim(name, from, to) {
      return (await runScript(client, SETTLE, key(name), [from, to])) === 1;
    },
    async releaseClaim(name, value) {
      await runScript(client, DELETE_IF_HELD, key(name), [value]);
    },
  };
}

/** In-process claims: Node runs each call to completion, so plain map operations are atomic here. */
export function createMemoryClaims(clock: () => number): ClaimStore {
  const claims = new ExpiringMap<{ value: string; expiresAt: number }>(clock);
  return {
    async claim(name, value, ttlMs) {
      assertTtl(ttlMs);
      const held = claims.get(name);
      if (held) return { claimed: false, value: held.value };
      claims.set(name, { value, expiresAt: clock() + ttlMs }, ttlMs);
      return { claimed: true };
    },
    async readClaim(name) {
      return claims.get(name)?.value;
    },
    async settleClaim(name, from, to) {
      const held = claims.get(name);
      const left = held ? held.expiresAt - clock() : 0;
      if (!held || held.value !== from || left <= 0) return false;
      claims.set(name, { value: to, expiresAt: held.expiresAt }, left);
      return true;
    },
    async releaseClaim(name, value) {
      if (claims.get(name)?.value === value) claims.delete(name);
    },
  };
}
