import { describe, expect, it } from 'vitest';
import { AgentApiError, AgentApiErrorCode, parseRetryAfter } from '../../src/agent-api/errors.js';
import {
  DEFAULT_RETRY_POLICY,
  isRetryable,
  kyRetrySettings,
  mayRetry,
  neverReachedServer,
  type RetryMode,
} from '../../src/agent-api/retry-policy.js';

/** The decisions ky's retry is configured with; client-retry.test.ts checks them over HTTP. */

const refused = () => {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
  return new AgentApiError(AgentApiErrorCode.Network, 'refused', {
    cause: new TypeError('fetch failed', { cause }),
  });
};
const reset = () => {
  const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  return new AgentApiError(AgentApiErrorCode.Network, 'reset', {
    cause: new TypeError('fetch failed', { cause }),
  });
};
const http = (code: AgentApiErrorCode, status: number) => new AgentApiError(code, 'x', { status });

describe('parseRetryAfter', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    ['3', 3000],
    ['0', 0],
    ['1.5', 1500],
    [' 2 ', 2000],
    ['Tue, 01 Jan 2030 00:00:10 GMT', 10_000],
    ['Mon, 31 Dec 2029 23:59:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('the backoff ky is given (full jitter)', () => {
  it('grows exponentially up to the cap and scales with the random draw', () => {
    const backoff = (retryCount: number, draw: number) => {
      const settings = kyRetrySettings(DEFAULT_RETRY_POLICY, () => draw);
      const jitter = settings.jitter as (delayMs: number) => number;
      return jitter(settings.delay?.(retryCount) ?? Number.NaN);
    };
    expect([1, 2, 3, 4, 11].map((retry) => backoff(retry, 0.999999))).toEqual([199, 399, 799, 1599, 4999]);
    expect(backoff(4, 0)).toBe(0);
    expect(backoff(2, 0.5)).toBe(200);
  });
});

describe('isRetryable', () => {
  const cases: Array<[string, AgentApiError, RetryMode, boolean]> = [
    ['503 read', http(AgentApiErrorCode.Maintenance, 503), 'idempotent', true],
    ['502 read', http(AgentApiErrorCode.HttpError, 502), 'idempotent', true],
    ['504 read', http(AgentApiErrorCode.HttpError, 504), 'idempotent', true],
    ['429 read', http(AgentApiErrorCode.RateLimited, 429), 'idempotent', true],
    ['500 read', http(AgentApiErrorCode.HttpError, 500), 'idempotent', false],
    ['400 read', http(AgentApiErrorCode.RejectedRequest, 400), 'idempotent', false],
    ['reset read', reset(), 'idempotent', true],
    ['timeout read', new AgentApiError(AgentApiErrorCode.Timeout, 't'), 'idempotent', false],
    ['503 start', http(AgentApiErrorCode.Maintenance, 503), 'unsent-only', false],
    ['502 start', http(AgentApiErrorCode.HttpError, 502), 'unsent-only', false],
    ['429 start', http(AgentApiErrorCode.RateLimited, 429), 'unsent-only', true],
    ['refused start', refused(), 'unsent-only', true],
    ['reset start', reset(), 'unsent-only', false],
    ['timeout start', new AgentApiError(AgentApiErrorCode.Timeout, 't'), 'unsent-only', false],
  ];
  it.each(cases)('%s', (_name, error, mode, expected) => {
    expect(isRetryable(error, mode)).toBe(expected);
  });

  it('never retries errors that are not the client’s own (e.g. a caller abort)', () => {
    expect(isRetryable(new DOMException('aborted', 'AbortError'), 'idempotent')).toBe(false);
  });
});

describe('mayRetry', () => {
  const limited = (retryAfterMs: number) =>
    new AgentApiError(AgentApiErrorCode.RateLimited, 'x', { status: 429, retryAfterMs });
  it('leaves a retryable failure to ky’s wait, unless the service asks for more than the cap', () => {
    expect(mayRetry(limited(7000), 'unsent-only', DEFAULT_RETRY_POLICY)).toBeUndefined();
    expect(mayRetry(limited(61_000), 'unsent-only', DEFAULT_RETRY_POLICY)).toBe(false);
    expect(mayRetry(http(AgentApiErrorCode.HttpError, 500), 'idempotent', DEFAULT_RETRY_POLICY)).toBe(false);
  });
});

describe('neverReachedServer', () => {
  it('finds the code deep in causes and inside AggregateError members', () => {
    const inner = Object.assign(new Error('x'), { code: 'ECONNREFUSED' });
    expect(neverReachedServer(new TypeError('fetch failed', { cause: new AggregateError([inner]) }))).toBe(
      true,
    );
    expect(neverReachedServer(new TypeError('fetch failed', { cause: new Error('other') }))).toBe(false);
  });
});
