import {
  type FetchFunction,
  type RetryOptions,
  type Logger as SlackLogger,
  type WebAPICallResult,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from '@slack/web-api';

/**
 * The Web API methods a turn calls on every run: the answer, notices, progress messages and the
 * native thread status. Their arguments are plain JSON, which Slack takes as a JSON body.
 */
export const LEAN_METHODS: ReadonlySet<string> = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'chat.delete',
  'assistant.threads.setStatus',
]);

export interface LeanApiCallOptions {
  /** The Web API base address, ending in `/`. */
  apiUrl: string;
  token: string;
  /** The keep-alive fetch of slack-fetch.ts (its own timeout applies). */
  fetch: FetchFunction;
  /** The client's retry policy for network and HTTP failures (p-retry's options). */
  retry: RetryOptions;
  /** Fail a 429 at once instead of waiting out its Retry-After. */
  rejectRateLimitedCalls?: boolean | undefined;
  logger: SlackLogger;
  sleep?: ((ms: number) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

export type LeanApiCall = (method: string, args: Record<string, unknown>) => Promise<WebAPICallResult>;

type FetchResponse = Awaited<ReturnType<FetchFunction>>;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** p-retry's delay before retry number `attempt` (0-based), as the Web client would wait it. */
export function retryDelayMs(retry: RetryOptions, attempt: number, random: () => number): number {
  const factor = retry.factor ?? 2;
  const min = Math.max(retry.minTimeout ?? 1000, 1);
  const max = retry.maxTimeout ?? Number.POSITIVE_INFINITY;
  const spread = retry.randomize ? random() + 1 : 1;
  return Math.min(Math.round(spread * min * factor ** attempt), max);
}

/** A retry header in whole seconds, as the Web client reads it. */
function retryAfterSeconds(response: FetchResponse): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number.parseInt(header, 10);
  return Number.isNaN(seconds) ? undefined : seconds;
}

/** Thrown inside an attempt when a 429's Retry-After was waited out: try again at once. */
class WaitedOutRateLimit extends Error {
  constructor(readonly retryAfter: number) {
    super(`rate limited; waited ${retryAfter} s`);
  }
}

/**
 * One Web API method as a single JSON exchange, with the Web client's outcomes: the same error
 * classes (platform, HTTP, request, rate-limited), network and HTTP failures retried by the same
 * policy, a 429 waited out for its Retry-After (or failed at once with `rejectRateLimitedCalls`).
 *
 * Why not the Web client itself for these: for every call it serialises and redacts the body, the
 * headers and the result into debug lines whether debug is on or not, form-encodes the body, and
 * runs the call through a queue and a retry wrapper — about 48 KB of garbage and several times the
 * CPU of the exchange, on the two or three calls every turn makes. Two differences, both on
 * purpose: a 429 holds back only its own call (the Web client pauses all of its calls), and a call
 * still rate limited after its last attempt fails as a rate-limited error rather than a plain one.
 */
export function createLeanApiCall(options: LeanApiCallOptions): LeanApiCall {
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  const retries = options.retry.retries ?? 10;

  async function attempt(url: string, headers: Record<string, string>, body: string) {
    let response: FetchResponse;
    try {
      response = await options.fetch(url, { method: 'POST', headers, body, redirect: 'error' });
    } catch (error) {
      options.logger.warn('http request failed', error instanceof Error ? error.message : String(error));
      throw new WebAPIRequestError(error instanceof Error ? error : new Error(String(error)));
    }
    if (response.status === 429) {
      const retryAfter = retryAfterSeconds(response);
      if (retryAfter === undefined || options.rejectRateLimitedCalls) {
        throw new WebAPIRateLimitedError(retryAfter ?? 0);
      }
      options.logger.info(`API Call failed due to rate limiting. Will retry in ${retryAfter} seconds.`);
      await sleep(retryAfter * 1000);
      throw new WaitedOutRateLimit(retryAfter);
    }
    const text = await response.text();
    if (response.status !== 200) {
      throw new WebAPIHTTPError(
        response.status,
        response.statusText,
        Object.fromEntries(response.headers.entries()),
        text,
      );
    }
    let result: WebAPICallResult;
    try {
      result = JSON.parse(text) as WebAPICallResult;
    } catch {
      // What the Web client makes of a body that is not JSON.
      result = { ok: false, error: text } as WebAPICallResult;
    }
    for (const warning of result.response_metadata?.warnings ?? []) options.logger.warn(warning);
    if (!result.ok) throw new WebAPIPlatformError(result as WebAPICallResult & { error: string });
    return result;
  }

  return async (method, args) => {
    const { token, ...rest } = args;
    const headers = {
      Authorization: `Bearer ${typeof token === 'string' && token !== '' ? token : options.token}`,
      'Content-Type': 'application/json; charset=utf-8',
    };
    const body = JSON.stringify(rest);
    const url = `${options.apiUrl}${method}`;
    for (let tried = 0; ; tried += 1) {
      try {
        return await attempt(url, headers, body);
      } catch (error) {
        const retryable =
          error instanceof WaitedOutRateLimit ||
          error instanceof WebAPIRequestError ||
          error instanceof WebAPIHTTPError;
        if (!retryable) throw error;
        if (tried >= retries) {
          throw error instanceof WaitedOutRateLimit ? new WebAPIRateLimitedError(error.retryAfter) : error;
        }
        // A waited-out 429 goes again at once; anything else backs off as p-retry would.
        if (!(error instanceof WaitedOutRateLimit)) await sleep(retryDelayMs(options.retry, tried, random));
      }
    }
  };
}
