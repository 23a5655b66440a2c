import { AgentApiErrorCode, isAgentApiError } from './errors.js';

/**
 * The client's own retry loop (ky's is disabled): ky would retry by method, but whether a call
 * may be repeated depends on the endpoint — a repeated run start could start a second run.
 */

export interface RetryPolicy {
  /** Retries after the first attempt, at most. Default 3 (so 4 attempts). */
  limit: number;
  /** Backoff cap of the first retry; doubles per retry. Default 200. */
  baseDelayMs: number;
  /** Upper bound of one backoff. Default 5000. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is returned. Default 60000. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  limit: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 60_000,
};

/**
 * `idempotent`: reads and writes whose repetition is harmless (GET, PUT, feedback upsert,
 * enable/disable, export).
 * `unsent-only`: run start and follow-up. These are retried only when the service provably did
 * not act on the request: the connection was never made (refused, DNS failure, connect timeout)
 * or the service answered 429, i.e. turned the request away before handling it. A 503, a reset
 * connection or a timeout may come after the run started, so they are returned to the caller.
 */
export type RetryMode = 'idempotent' | 'unsent-only';

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Failures before any byte reached the service. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** True when some error in the `cause` chain (or an AggregateError's members) has a never-connected code. */
export function neverReachedServer(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
  if (error instanceof AggregateError && error.errors.some((inner) => neverReachedServer(inner, depth + 1))) {
    return true;
  }
  return neverReachedServer((error as { cause?: unknown }).cause, depth + 1);
}

/** Whether this failure may be retried under `mode`. Only AgentApiErrors are ever retried. */
export function isRetryable(error: unknown, mode: RetryMode): boolean {
  if (!isAgentApiError(error)) return false;
  if (mode === 'unsent-only') {
    if (error.code === AgentApiErrorCode.RateLimited) return true;
    return error.code === AgentApiErrorCode.Network && neverReachedServer(error.cause);
  }
  if (error.code === AgentApiErrorCode.Network) return true;
  return error.status !== undefined && RETRYABLE_STATUSES.has(error.status);
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base·2^retryIndex)). */
export function backoffDelayMs(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * cap);
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

export interface RetryRun {
  mode: RetryMode;
  policy: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  signal?: AbortSignal | undefined;
  /** Called before each backoff sleep (for logs). */
  onRetry?: (error: unknown, retryNumber: number, delayMs: number) => void;
}

/** The wait before retry number `retryIndex + 1`, or undefined when the error must be returned. */
function delayBeforeRetry(error: unknown, retryIndex: number, run: RetryRun): number | undefined {
  if (retryIndex >= run.policy.limit || !isRetryable(error, run.mode)) return undefined;
  const backoff = backoffDelayMs(retryIndex, run.policy, run.random);
  const retryAfter = isAgentApiError(error) ? error.retryAfterMs : undefined;
  if (retryAfter === undefined) return backoff;
  // Waiting longer than the cap would hold a Slack user for minutes: hand the error back instead.
  if (retryAfter > run.policy.maxRetryAfterMs) return undefined;
  return Math.max(retryAfter, backoff);
}

/**
 * Calls `attempt` until it succeeds, the error is not retryable under the mode, or the limit is
 * reached. The sleep happens outside `attempt`, so a backoff never holds a request-budget slot.
 */
export async function withRetry<T>(attempt: () => Promise<T>, run: RetryRun): Promise<T> {
  for (let retryIndex = 0; ; retryIndex += 1) {
    try {
      return await attempt();
    } catch (error) {
      const delay = delayBeforeRetry(error, retryIndex, run);
      if (delay === undefined) throw error;
      run.onRetry?.(error, retryIndex + 1, delay);
      await run.sleep(delay, run.signal);
    }
  }
}
