/**
 * Progress updates share one token bucket, coalesced per key: `chat.update` is Tier 3 (about 50 a
 * minute per workspace, https://api.slack.com/methods/chat.update), and answers never wait behind
 * progress. A refresh keeps a native status alive (Slack clears one two minutes after it was set),
 * so it goes first without waiting, driving the bucket into debt (a minute's worth at most).
 */

import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';

/** Builds the process's progress throttle; a single drain loop runs while updates wait. */
export function createProgressThrottle<P>(options: {
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
}) {
  const { clock, logger, perMinute } = options;
  if (!(perMinute > 0)) throw new RangeError(`perMinute must be positive, got ${perMinute}`);
  const burst = Math.max(1, Math.floor(options.burst ?? Math.min(perMinute, 5)));
  const maxRefreshesInFlight = Math.max(1, options.maxRefreshesInFlight ?? 16);
  const bucket = createTokenBucket(perMinute, burst, clock);
  // Insertion order: a replaced payload keeps its place, a key offered after its send goes last.
  const steps = new Map<string, P>();
  const refreshes = new Map<string, P>();
  const sending = new Map<string, Promise<void>>();
  let refreshesInFlight = 0;
  const closer = new AbortController();
  /** Aborts the drain's wait for a token when a refresh arrives, which need not wait. */
  let tokenWait: AbortController | undefined;
  let draining = false;

  // One send per key at a time, so an older step can never land after a newer one.
  function firstIdle(waiting: Map<string, P>): string | undefined {
    for (const key of waiting.keys()) if (!sending.has(key)) return key;
    return undefined;
  }

  function startSend(key: string, payload: P, refresh: boolean): void {
    if (refresh) refreshesInFlight += 1;
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
      if (refresh) refreshesInFlight -= 1;
      if (sending.get(key) === work) sending.delete(key);
      // A refresh held back by the in-flight cap (or by its key's send) may go now.
      if (refreshes.size > 0) tokenWait?.abort(DONE_WAITING);
      kick();
    });
  }

  function sendNext(key: string, waiting: Map<string, P>): void {
    const payload = waiting.get(key) as P;
    waiting.delete(key);
    bucket.take();
    startSend(key, payload, waiting === refreshes);
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
        const refresh = refreshesInFlight < maxRefreshesInFlight ? firstIdle(refreshes) : undefined;
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
    /** Queues the latest step of `key`, replacing any update of it still waiting. Never blocks. */
    offer(key: string, payload: P): void {
      if (closer.signal.aborted) return;
      if (refreshes.has(key)) refreshes.set(key, payload);
      else steps.set(key, payload);
      kick();
    },
    /** Queues a refresh of `key` ahead of every step, replacing its waiting one; a later `offer` keeps it. */
    offerRefresh(key: string, payload: P): void {
      if (closer.signal.aborted) return;
      steps.delete(key);
      refreshes.set(key, payload);
      tokenWait?.abort(DONE_WAITING);
      kick();
    },
    /** Drops the waiting update of `key`; resolves once its send under way ended (answers go after it). */
    cancel(key: string): Promise<void> {
      steps.delete(key);
      refreshes.delete(key);
      return sending.get(key) ?? Promise.resolve();
    },
    pendingCount: () => steps.size + refreshes.size,
    /** Drops every waiting update and resolves once sends under way have finished. */
    async close(): Promise<void> {
      closer.abort(DONE_WAITING);
      tokenWait?.abort(DONE_WAITING);
      steps.clear();
      refreshes.clear();
      await Promise.all([...sending.values()]);
    },
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

export type ProgressThrottle<P> = ReturnType<typeof createProgressThrottle<P>>;
