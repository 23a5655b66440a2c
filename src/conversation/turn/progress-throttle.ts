/**
 * Progress updates share one token bucket, coalesced per key: `chat.update` is Tier 3 (about 50 a
 * minute per workspace, https://api.slack.com/methods/chat.update), and answers never wait behind
 * progress. A refresh keeps a native status alive (Slack clears one two minutes after it was set),
 * so it goes first without waiting, driving the bucket into debt (a minute's worth at most).
 */

import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';

interface ThrottleOptions<P> {
  /** Sends allowed per minute, across all keys. Refreshes are charged to it but never wait for it. */
  perMinute: number;
  /** Sends allowed back to back after a quiet spell. Default min(perMinute, 5). */
  burst?: number | undefined;
  /** Refreshes under way at once. Default 16: a quarter of `SLACK_CONNECTIONS` (src/slack/web-client.ts). */
  maxRefreshesInFlight?: number | undefined;
  clock: Clock;
  /** Shows one update (e.g. `chat.update` of a thread's progress message). */
  send(key: string, payload: P): Promise<void>;
  logger?: Logger | undefined;
}

/** Builds the process's progress throttle; a single drain loop runs while updates wait. */
export function createProgressThrottle<P>(options: ThrottleOptions<P>) {
  const { perMinute } = options;
  if (!(perMinute > 0)) throw new RangeError(`perMinute must be positive, got ${perMinute}`);
  // Insertion order: a replaced payload keeps its place, a key offered after its send goes last.
  const steps = new Map<string, P>();
  const refreshes = new Map<string, P>();
  const loop = createDrainLoop(options, { steps, refreshes });
  let closed = false;

  return {
    /** Queues the latest step of `key`, replacing any update of it still waiting. Never blocks. */
    offer(key: string, payload: P): void {
      if (closed) return;
      (refreshes.has(key) ? refreshes : steps).set(key, payload);
      loop.kick();
    },
    /** Queues a refresh of `key` ahead of every step, replacing its waiting one; a later `offer` keeps it. */
    offerRefresh(key: string, payload: P): void {
      if (closed) return;
      steps.delete(key);
      refreshes.set(key, payload);
      loop.wake();
    },
    /** Drops the waiting update of `key`; resolves once its send under way ended (answers go after it). */
    cancel(key: string): Promise<void> {
      steps.delete(key);
      refreshes.delete(key);
      return loop.sendUnderWay(key);
    },
    pendingCount: () => steps.size + refreshes.size,
    /** Drops every waiting update and resolves once sends under way have finished. */
    async close(): Promise<void> {
      closed = true;
      steps.clear();
      refreshes.clear();
      await loop.close();
    },
  };
}

export type ProgressThrottle<P> = ReturnType<typeof createProgressThrottle<P>>;

/** The updates waiting, the latest per key: a key is a step or a refresh (refreshes go first). */
interface Waiting<P> {
  steps: Map<string, P>;
  refreshes: Map<string, P>;
}

/** The one loop that sends what waits: refreshes at once (a few under way at most), steps as tokens allow. */
function createDrainLoop<P>(options: ThrottleOptions<P>, { steps, refreshes }: Waiting<P>) {
  const { clock, perMinute } = options;
  const burst = Math.max(1, Math.floor(options.burst ?? Math.min(perMinute, 5)));
  const bucket = createTokenBucket(perMinute, burst, clock);
  const maxRefreshesInFlight = Math.max(1, options.maxRefreshesInFlight ?? 16);
  const closer = new AbortController();
  /** Aborts the drain's wait for a token when a refresh arrives, which need not wait. */
  let tokenWait: AbortController | undefined;
  let draining = false;
  const sends = createSends(options, () => {
    // A refresh held back by the in-flight cap (or by its key's send) may go now.
    if (refreshes.size > 0) tokenWait?.abort(DONE_WAITING);
    kick();
  });

  // One send per key at a time, so an older step can never land after a newer one.
  function firstIdle(queue: Map<string, P>): string | undefined {
    for (const key of queue.keys()) if (!sends.busy(key)) return key;
    return undefined;
  }

  function sendNext(key: string, queue: Map<string, P>): void {
    const payload = queue.get(key) as P;
    queue.delete(key);
    bucket.take();
    sends.start(key, payload, queue === refreshes);
  }

  /** Waits for a token, or less when a refresh arrives (or the throttle closes). */
  async function waitForToken(ms: number): Promise<void> {
    tokenWait = new AbortController();
    // Woken early: the loop looks again.
    await clock.sleep(ms, tokenWait.signal).catch(() => undefined);
    tokenWait = undefined;
  }

  async function drain(): Promise<void> {
    try {
      while (!closer.signal.aborted) {
        const refresh = sends.refreshesInFlight() < maxRefreshesInFlight ? firstIdle(refreshes) : undefined;
        if (refresh !== undefined) {
          sendNext(refresh, refreshes);
          continue;
        }
        const step = firstIdle(steps);
        if (step === undefined) break;
        const waitMs = bucket.msUntilToken();
        if (waitMs > 0) {
          await waitForToken(waitMs);
          continue; // the waiting keys may have changed meanwhile
        }
        sendNext(step, steps);
      }
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
    kick,
    /** A refresh arrived: it need not wait for the token the loop waits for. */
    wake(): void {
      tokenWait?.abort(DONE_WAITING);
      kick();
    },
    sendUnderWay: sends.of,
    async close(): Promise<void> {
      closer.abort(DONE_WAITING);
      tokenWait?.abort(DONE_WAITING);
      await sends.all();
    },
  };
}

/** Sends under way, one per key, and how many of them are refreshes. */
function createSends<P>(options: ThrottleOptions<P>, onSettled: () => void) {
  const { send, logger } = options;
  const sending = new Map<string, Promise<void>>();
  let refreshes = 0;
  return {
    busy: (key: string) => sending.has(key),
    refreshesInFlight: () => refreshes,
    start(key: string, payload: P, refresh: boolean): void {
      if (refresh) refreshes += 1;
      const work = (async () => {
        try {
          await send(key, payload);
        } catch (err) {
          // A lost progress update is harmless; the next one (or the answer) supersedes it.
          logger?.warn({ err, key }, 'progress update failed; dropped');
        }
      })();
      sending.set(key, work);
      void work.then(() => {
        if (refresh) refreshes -= 1;
        if (sending.get(key) === work) sending.delete(key);
        onSettled();
      });
    },
    of: (key: string) => sending.get(key) ?? Promise.resolve(),
    all: () => Promise.all([...sending.values()]),
  };
}

function createTokenBucket(perMinute: number, capacity: number, clock: Clock) {
  const msPerToken = 60_000 / perMinute;
  let tokens = capacity;
  let refilledAt = clock.now();

  const refill = (): void => {
    const now = clock.now();
    tokens = Math.min(capacity, tokens + (now - refilledAt) / msPerToken);
    refilledAt = now;
  };

  return {
    /** 0 when a token is available now. */
    msUntilToken() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * msPerToken);
    },
    /** Takes a token, or goes into debt (down to a minute's worth) when there is none. */
    take() {
      refill();
      tokens = Math.max(-perMinute, tokens - 1);
    },
  };
}
