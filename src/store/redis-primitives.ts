import type { AccountSlotLeases } from '../budget/account-share.js';
import { createRedisClaims, DELETE_IF_HELD } from './claims.js';
import { redisKey, type StoreKeys } from './keys.js';
import {
  assertAllowanceUse,
  assertSlotRequest,
  type HomePrimitives,
  RANK_DIGITS,
  type StorePrimitives,
} from './primitives.js';
import { type RedisCommands, runScript } from './redis-connection.js';
import { assertTtl } from './ttls.js';

/** Lua runs atomically: nothing interleaves between the GET and the write, as it could from here. */
const TRY_LOCK = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0`;

const RENEW_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/**
 * KEYS[1] = the allowance's sorted set (use id → time); ARGV = id, limit, windowMs, now. {1} when
 * recorded, else {0, retryAt}: when the oldest use keeping the set full leaves the window.
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

/** Locks, the in-flight set, allowances, claims and account slots, every key under `prefix::`. */
export function createRedisPrimitives(
  client: RedisCommands,
  prefix: string,
  keys: StoreKeys,
): Omit<StorePrimitives, 'ping' | 'close'> {
  const key = (name: string) => redisKey(prefix, name);
  const lockKey = (name: string) => key(keys.lock(name));
  const inFlightKey = key(keys.inFlightTurns);
  const allowanceKey = (name: string) => key(keys.allowance(name));
  const turnKey = (turnId: string) => key(keys.turn(turnId));

  return {
    ...createRedisClaims(client, prefix, keys),
    async tryLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      return (await runScript(client, TRY_LOCK, lockKey(name), [owner, String(ttlMs)])) === 1;
    },
    async renewLock(name, owner, ttlMs) {
      assertTtl(ttlMs);
      return (await runScript(client, RENEW_LOCK, lockKey(name), [owner, String(ttlMs)])) === 1;
    },
    async unlock(name, owner) {
      await runScript(client, DELETE_IF_HELD, lockKey(name), [owner]);
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
    inFlightIds: () => client.sMembers(inFlightKey),
    async pruneInFlight(turnId) {
      // Set and record are in different cluster slots: remove, then look again. A racing save wrote
      // its record before its id, so the second look sees it (the id goes back) or its add comes after.
      if ((await client.exists(turnKey(turnId))) !== 0) return;
      await client.sRem(inFlightKey, turnId);
      if ((await client.exists(turnKey(turnId))) !== 0) await client.sAdd(inFlightKey, turnId);
    },
    async takeAllowance(name, use) {
      assertAllowanceUse(use);
      const args = [use.id, String(use.limit), String(use.windowMs), String(use.now)];
      const verdict = await runScript(client, TAKE_ALLOWANCE, allowanceKey(name), args);
      const [taken, retryAt] = verdict as number[];
      return taken === 1 ? { ok: true } : { ok: false, retryAt: Number(retryAt) };
    },
    async returnAllowance(name, id) {
      await client.zRem(allowanceKey(name), id);
    },
    ...createRedisAccountSlots(client, prefix, keys),
  };
}

/**
 * KEYS[1] = a hash of `<rank, zero-padded><value>`; ARGV = field, ranked value, keep, ttlMs ('' for
 * none). Sets the field and drops the lowest-ranked beyond `keep` in one step: racing writes keep the newest.
 */
const PUT_RANKED = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local keep = tonumber(ARGV[3])
while redis.call('HLEN', KEYS[1]) > keep do
  local all = redis.call('HGETALL', KEYS[1])
  local oldest, oldestRank = nil, nil
  for i = 1, #all, 2 do
    local rank = string.sub(all[i + 1], 1, ${RANK_DIGITS})
    if oldestRank == nil or rank < oldestRank then oldest, oldestRank = all[i], rank end
  end
  redis.call('HDEL', KEYS[1], oldest)
end
if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`;

/** KEYS[1] = a set; ARGV = member, ttlMs ('' for none): the expiry is set by the first member only. */
const ADD_MEMBER = `
local added = redis.call('SADD', KEYS[1], ARGV[1])
if ARGV[2] ~= '' and redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return added`;

const ttlArg = (ttlMs: number | undefined) => (ttlMs ? String(ttlMs) : '');
const padRank = (rank: number) => String(Math.max(0, Math.floor(rank))).padStart(RANK_DIGITS, '0');

/** App Home's ranked maps and sets in Redis, every key under `prefix::` (see primitives.ts). */
export function createRedisHomePrimitives(client: RedisCommands, prefix: string): HomePrimitives {
  const key = (name: string) => redisKey(prefix, name);

  return {
    async putRanked(name, entry, keep, ttlMs) {
      const value = `${padRank(entry.rank)}${entry.value}`;
      await runScript(client, PUT_RANKED, key(name), [entry.field, value, String(keep), ttlArg(ttlMs)]);
    },
    async ranked(name) {
      const all = await client.hGetAll(key(name));
      return Object.entries(all)
        .map(([field, stored]) => ({
          field,
          rank: Number(stored.slice(0, RANK_DIGITS)),
          value: stored.slice(RANK_DIGITS),
        }))
        .sort((a, b) => b.rank - a.rank);
    },
    async addMember(name, member, ttlMs) {
      await runScript(client, ADD_MEMBER, key(name), [member, ttlArg(ttlMs)]);
    },
    async removeMember(name, member) {
      await client.sRem(key(name), member);
    },
    members: (name) => client.sMembers(key(name)),
    memberCount: (name) => client.sCard(key(name)),
  };
}

/**
 * KEYS[1] = the account's hash (holder → "count:expiresAt"); ARGV = holder, want, limit, ttlMs.
 * Grants what the live others leave; Redis's own clock judges expiry, so skewed replicas agree.
 */
const LEASE_SLOTS = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local want, limit, ttl = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local others = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if fields[i] ~= ARGV[1] then
    local count, expires = string.match(fields[i + 1], '^(%d+):(%d+)$')
    if count == nil or tonumber(expires) <= now then
      redis.call('HDEL', KEYS[1], fields[i])
    else
      others = others + tonumber(count)
    end
  end
end
local granted = math.max(0, math.min(want, limit - others))
if granted > 0 then
  redis.call('HSET', KEYS[1], ARGV[1], granted .. ':' .. (now + ttl))
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ttl)
return granted`;

const RELEASE_SLOTS = `return redis.call('HDEL', KEYS[1], ARGV[1])`;

/** Account budgets in Redis, one hash per account. */
function createRedisAccountSlots(client: RedisCommands, prefix: string, keys: StoreKeys): AccountSlotLeases {
  const keyOf = (account: string) => redisKey(prefix, keys.accountSlots(account));
  return {
    async leaseAccountSlots(account, holder, request) {
      assertSlotRequest(request);
      const args = [holder, String(request.want), String(request.limit), String(request.ttlMs)];
      return Number(await runScript(client, LEASE_SLOTS, keyOf(account), args));
    },
    async releaseAccountSlots(account, holder) {
      await runScript(client, RELEASE_SLOTS, keyOf(account), [holder]);
    },
  };
}
