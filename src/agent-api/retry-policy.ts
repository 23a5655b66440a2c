import type { RetryOptions } from 'ky';
import { AgentApiErrorCode, isAgentApiError } from './errors.js';

/** ky's `retry` settings: the call's mode decides, not its method (a repeated run start is a second run). */

/** The client's retry settings, each of which a client may override. */
export const DEFAULT_RETRY_POLICY = {
  /** Retries after the first attempt, at most (so 4 attempts). */
  limit: 3,
  /** Backoff cap of the first retry; doubles per retry. */
  baseDelayMs: 200,
  /** Upper bound of one backoff. */
  maxDelayMs: 5000,
  /** A `Retry-After` longer than this is not waited for: the error is returned. */
  maxRetryAfterMs: 60_000,
};
export type RetryPolicy = typeof DEFAULT_RETRY_POLICY;

/**
 * `idempotent`: repetition is harmless (GET, PUT, feedback upsert, enable/disable, export).
 * `unsent-only` (run start, follow-up, account creation): retried only when the service provably
 * did not act — never connected, or 429. A 503, reset or timeout may come after the run started.
 */
export type RetryMode = 'idempotent' | 'unsent-only';

/** A busy or down service: worth another try, and no sign of a wrong address. */
export const RETRYABLE_STATUSES = [429, 502, 503, 504];
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
  return error.status !== undefined && RETRYABLE_STATUSES.includes(error.status);
}

/** `false` unless retryable and any `Retry-After` within the policy's (not minutes of a Slack user's wait). */
export function mayRetry(failure: unknown, mode: RetryMode, policy: RetryPolicy): false | undefined {
  if (!isRetryable(failure, mode)) return false;
  const retryAfterMs = isAgentApiError(failure) ? failure.retryAfterMs : undefined;
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return false;
  return undefined;
}

/** ky's retry settings but the per-call `limit`/`shouldRetry`: every method, backoff with full jitter. */
export function kyRetrySettings(policy: RetryPolicy, random: () => number): RetryOptions {
  return {
    methods: ['get', 'post', 'put'],
    statusCodes: RETRYABLE_STATUSES,
    afterStatusCodes: RETRYABLE_STATUSES,
    maxRetryAfter: policy.maxRetryAfterMs,
    delay: (retryCount) => Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retryCount - 1)),
    jitter: (delayMs) => Math.floor(random() * delayMs),
    backoffLimit: policy.maxDelayMs,
    retryOnTimeout: false,
  };
}
