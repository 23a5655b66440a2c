/**
 * Progress updates share one token bucket: `chat.update` is Tier 3 (about 50 a minute per
 * workspace, https://api.slack.com/methods/chat.update), and answers must never wait behind
 * progress. Updates are coalesced per key (only the latest step matters), so what waits is bounded
 * by the number of keys, and whatever a key offered before its turn came is simply replaced.
 */
import type { Clock, Logger } from './ports.js';

export interface ProgressThrottleOptions<P> {
  /** Sends allowed per minute, across all keys. */
  perMinute: number;
  /** Sends allowed back to back after a quiet spell. Default min(perMinute, 5). */
  burst?: number | undefined;
  clock: Clock;
  /** Shows one update (e.g. `chat.update` of a thread's progress message). */
  send(key: string, payload: P): Promise<void>;
  logger?: Logger | undefined;
}

export interface ProgressThrottle<P> {
  /** Queues the latest progress of `key`, replacing any update of it still waiting. Never blocks. */
  offer(key: string, payload: P): void;
  /**
   * Drops the waiting update of `key` and resolves once a send of it already under way has
   * finished, so the answer can be posted after the progress message settles. Never rejects.
   */
  cancel(key: string): Promise<void>;
  /** Keys with an update waiting. */
  pendingCount(): number;
  /** Drops every waiting update and resolves once sends under way have finished. */
  close(): Promise<void>;
}

/** Builds the process's progress throttle; a single drain loop runs while updates wait. */
export function createProgressThrottle<P>(options: ProgressThrottleOptions<P>): ProgressThrottle<P> {
  const { clock, logger, perMinute } = options;
  if (!(perMinute > 0)) throw new RangeError(`perMinute must be positive, got ${perMinute}`);
  const burst = Math.max(1, Math.floor(options.burst ?? Math.min(perMinute, 5)));
  const bucket = createTokenBucket(perMinute, burst, clock);
  // Map order is insertion order: replacing a waiting payload keeps its place, a key offered after
  // its send goes to the back — round-robin across keys.
  const waiting = new Map<string, P>();
  const sending = new Map<string, Promise<void>>();
  const closer = new AbortController();
  let draining = false;

  function nextKey(): string | undefined {
    // One send per key at a time, so an older step can never land after a newer one.
    for (const key of waiting.keys()) if (!sending.has(key)) return key;
    return undefined;
  }

  function startSend(key: string, payload: P): void {
    const work = (async () => {
      try {
        await options.send(key, payload);
      } catch (err) {
        // A lost progress update is harmless; the next one (or the answer) supersedes it.
        logger?.warn({ err, key }, 'progress update failed; dropped');
      }
    })();
    sending.set(key, work);
    void work.then(() => {
      if (sending.get(key) === work) sending.delete(key);
      kick();
    });
  }

  async function drain(): Promise<void> {
    try {
      for (let key = nextKey(); key !== undefined && !closer.signal.aborted; key = nextKey()) {
        const waitMs = bucket.msUntilToken();
        if (waitMs > 0) {
          await clock.sleep(waitMs, closer.signal);
          continue; // the waiting keys may have changed meanwhile
        }
        const payload = waiting.get(key) as P;
        waiting.delete(key);
        bucket.take();
        startSend(key, payload);
      }
    } catch {
      // Only the close signal interrupts the sleep.
    } finally {
      draining = false;
    }
  }

  function kick(): void {
    if (draining || closer.signal.aborted) return;
    draining = true;
    void drain();
  }

  return {
    offer(key, payload) {
      if (closer.signal.aborted) return;
      waiting.set(key, payload);
      kick();
    },
    cancel(key) {
      waiting.delete(key);
      return sending.get(key) ?? Promise.resolve();
    },
    pendingCount: () => waiting.size,
    async close() {
      closer.abort();
      waiting.clear();
      await Promise.all([...sending.values()]);
    },
  };
}

interface TokenBucket {
  /** 0 when a token is available now. */
  msUntilToken(): number;
  take(): void;
}

function createTokenBucket(perMinute: number, capacity: number, clock: Clock): TokenBucket {
  const msPerToken = 60_000 / perMinute;
  let tokens = capacity;
  let refilledAt = clock.now();

  const refill = (): void => {
    const now = clock.now();
    tokens = Math.min(capacity, tokens + (now - refilledAt) / msPerToken);
    refilledAt = now;
  };

  return {
    msUntilToken() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * msPerToken);
    },
    take() {
      refill();
      tokens -= 1;
    },
  };
}
