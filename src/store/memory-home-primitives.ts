import { ExpiringMap } from './expiring-map.js';
import type { HomePrimitives, RankedEntry } from './home-primitives.js';

/** App Home's ranked maps and sets in this process (see home-primitives.ts). */
export function createMemoryHomePrimitives(clock: () => number): HomePrimitives {
  const maps = new ExpiringMap<Map<string, RankedEntry>>(clock);
  const sets = new ExpiringMap<Set<string>>(clock);

  return {
    async putRanked(name, entry, keep, ttlMs) {
      const map = maps.get(name) ?? new Map<string, RankedEntry>();
      map.set(entry.field, { ...entry });
      const byRank = [...map.values()].sort((a, b) => b.rank - a.rank);
      for (const dropped of byRank.slice(keep)) map.delete(dropped.field);
      maps.set(name, map, ttlMs);
    },
    async ranked(name) {
      return [...(maps.get(name)?.values() ?? [])]
        .sort((a, b) => b.rank - a.rank)
        .map((entry) => ({ ...entry }));
    },
    async addMember(name, member, ttlMs) {
      const set = sets.get(name);
      if (set) set.add(member);
      else sets.set(name, new Set([member]), ttlMs);
    },
    async removeMember(name, member) {
      sets.get(name)?.delete(member);
    },
    async members(name) {
      return [...(sets.get(name) ?? [])];
    },
    async memberCount(name) {
      return sets.get(name)?.size ?? 0;
    },
  };
}
