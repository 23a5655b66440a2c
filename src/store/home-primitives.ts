/**
 * The two shapes App Home's records need, atomic in each backend: a ranked map that keeps only its
 * newest entries (a person's recent threads, the agents seen) and a set of distinct members (this
 * week's tallies, the bound channels). Each lives under one key, so Redis Cluster finds it in one
 * slot. Memory: memory-home-primitives.ts; Redis: redis-home-primitives.ts.
 */
export interface RankedEntry {
  field: string;
  value: string;
  rank: number;
}

export interface HomePrimitives {
  /**
   * Sets `field` of `name` to `value` at `rank`, then drops the lowest-ranked entries beyond
   * `keep`; with `ttlMs` the whole map expires that long after this write.
   */
  putRanked(name: string, entry: RankedEntry, keep: number, ttlMs?: number): Promise<void>;
  /** The entries of `name`, highest rank first. */
  ranked(name: string): Promise<RankedEntry[]>;
  /** Adds `member`; with `ttlMs` the set expires that long after its first member. */
  addMember(name: string, member: string, ttlMs?: number): Promise<void>;
  removeMember(name: string, member: string): Promise<void>;
  members(name: string): Promise<string[]>;
  memberCount(name: string): Promise<number>;
}

/** Ranks are epoch ms: zero-padded, they sort as text in Redis' Lua as they do as numbers. */
export const RANK_DIGITS = 16;
