import type { AccountSlotLeases } from '../budget/account-share.js';
import { assertSlotRequest } from './memory-account-slots.js';
import type { RedisCommands } from './redis-connection.js';

/**
 * KEYS[1] = the account's hash (field: holder, value: "count:expiresAt"); ARGV = holder, want,
 * limit, ttlMs. Expired holders are dropped, the holder gets what it wants within what the live
 * others leave. Redis's own clock judges expiry, so replicas with skewed clocks agree; the key
 * expires a TTL after the last lease, so an account nobody uses leaves nothing behind.
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

/** Account budgets in Redis, one hash per account at `keyOf(account)`. */
export function createRedisAccountSlots(
  commands: RedisCommands,
  keyOf: (account: string) => string,
): AccountSlotLeases {
  return {
    async leaseAccountSlots(account, holder, request) {
      assertSlotRequest(request);
      const args = [holder, String(request.want), String(request.limit), String(request.ttlMs)];
      return Number(await commands.eval(LEASE_SLOTS, { keys: [keyOf(account)], arguments: args }));
    },
    async releaseAccountSlots(account, holder) {
      await commands.eval(RELEASE_SLOTS, { keys: [keyOf(account)], arguments: [holder] });
    },
  };
}
