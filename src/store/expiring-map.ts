interface Entry<V> {
  value: V;
  expiresAt: number | undefined;
}

/** How often (in clock time) a full sweep of expired entries may run; reads and writes trigger it. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * A Map whose entries expire against an injected clock, and a keyv storage adapter (keyv passes the
 * TTL to `set`). Expiry is lazy; an occasional sweep keeps never-read entries from piling up.
 */
export class ExpiringMap<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #clock: () => number;
  #lastSweep: number;

  constructor(clock: () => number) {
    this.#clock = clock;
    this.#lastSweep = clock();
  }

  get(key: string): V | undefined {
    return this.#live(key)?.value;
  }

  has(key: string): boolean {
    return this.#live(key) !== undefined;
  }

  /** Stores `value`; without `ttlMs` it never expires. Returns true, as keyv expects of an adapter. */
  set(key: string, value: V, ttlMs?: number): boolean {
    this.#sweepIfDue();
    const expiresAt = typeof ttlMs === 'number' && ttlMs > 0 ? this.#clock() + ttlMs : undefined;
    this.#entries.set(key, { value, expiresAt });
    return true;
  }

  /** Moves the expiry of a live entry; false when the entry is missing or expired. */
  expire(key: string, ttlMs: number): boolean {
    const entry = this.#live(key);
    if (!entry) return false;
    entry.expiresAt = this.#clock() + ttlMs;
    return true;
  }

  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  #live(key: string): Entry<V> | undefined {
    this.#sweepIfDue();
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#expired(entry, this.#clock())) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #expired(entry: Entry<V>, now: number): boolean {
    return entry.expiresAt !== undefined && now >= entry.expiresAt;
  }

  #sweepIfDue(): void {
    const now = this.#clock();
    if (now - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#entries) {
      if (this.#expired(entry, now)) this.#entries.delete(key);
    }
  }
}
