import { type HomePrimitives, RANK_DIGITS, type RankedEntry } from './home-primitives.js';
import { redisKey } from './keys.js';
import type { RedisCommands } from './redis-connection.js';

/**
 * KEYS[1] = a hash whose values are `<rank, zero-padded><value>`; ARGV = field, ranked value,
 * keep, ttlMs ('' for none). Sets the field, then drops the lowest-ranked fields beyond `keep`
 * (few: one per write), all in one step, so two replicas writing at once keep the newest.
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

const padRank = (rank: number) => String(Math.max(0, Math.floor(rank))).padStart(RANK_DIGITS, '0');

/** App Home's ranked maps and sets in Redis, every key under `prefix::` (see home-primitives.ts). */
export function createRedisHomePrimitives(client: RedisCommands, prefix: string): HomePrimitives {
  const key = (name: string) => redisKey(prefix, name);
  const evalScript = (script: string, keys: string[], args: string[]) =>
    client.eval(script, { keys, arguments: args });

  return {
    async putRanked(name, entry, keep, ttlMs) {
      const args = [
        entry.field,
        `${padRank(entry.rank)}${entry.value}`,
        String(keep),
        ttlMs ? String(ttlMs) : '',
      ];
      await evalScript(PUT_RANKED, [key(name)], args);
    },
    async ranked(name) {
      const all = await client.hGetAll(key(name));
      return Object.entries(all)
        .map(
          ([field, stored]): RankedEntry => ({
            field,
            rank: Number(stored.slice(0, RANK_DIGITS)),
            value: stored.slice(RANK_DIGITS),
          }),
        )
        .sort((a, b) => b.rank - a.rank);
    },
    async addMember(name, member, ttlMs) {
      await evalScript(ADD_MEMBER, [key(name)], [member, ttlMs ? String(ttlMs) : '']);
    },
    async removeMember(name, member) {
      await client.sRem(key(name), member);
    },
    async members(name) {
      return client.sMembers(key(name));
    },
    async memberCount(name) {
      return client.sCard(key(name));
    },
  };
}
