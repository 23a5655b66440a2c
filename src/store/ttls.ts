const DAY_MS = 24 * 60 * 60 * 1000;

/** How long each kind of record lives after its last write, in milliseconds. */
export interface StoreTtls {
  /** Thread ↔ session bindings. @default 30 days */
  threadMs: number;
  /** Turns in flight; a turn outliving this is long past its deadline. @default 2 days */
  turnMs: number;
  /** Answer-message index used by reactions. @default 30 days */
  answerMs: number;
}

export const DEFAULT_TTLS: Readonly<StoreTtls> = Object.freeze({
  threadMs: 30 * DAY_MS,
  turnMs: 2 * DAY_MS,
  answerMs: 30 * DAY_MS,
});

/** Fills missing TTLs with defaults and rejects values Redis' `PX` would refuse. */
export function resolveTtls(ttl: Partial<StoreTtls> | undefined): StoreTtls {
  const resolved = { ...DEFAULT_TTLS, ...ttl };
  for (const [name, value] of Object.entries(resolved)) assertTtl(value, `ttl.${name}`);
  return resolved;
}

/** `PX` takes a positive integer; a fractional or zero TTL is a caller bug, not to be rounded away. */
export function assertTtl(ttlMs: number, what = 'ttlMs'): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`${what} must be a positive integer number of milliseconds, got ${ttlMs}`);
  }
}
