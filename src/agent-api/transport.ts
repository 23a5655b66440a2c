import { type Dispatcher, Pool } from 'undici';
import type { Logger } from '../conversation/ports.js';
import { bufferedRequest, RequestTimeoutError } from '../http/buffered-request.js';
import { AgentApiError, AgentApiErrorCode } from './errors.js';
import type { SuccessResponse } from './parse-body.js';
import type { RequestBudget, RequestKind } from './request-budget.js';
import { errorFromResponse, type NotFoundMeaning } from './response-errors.js';
import { parseRetryAfter, type RetryMode, type RetryPolicy, withRetry } from './retry.js';

/**
 * One HTTP exchange with the service: budget slot → undici pool → status translation, wrapped
 * in the endpoint's retry mode. Everything endpoint-specific (paths, schemas) lives in the resource
 * files.
 *
 * Why undici's `request` and not fetch: a status poll is a tiny GET repeated thousands of times a
 * minute. Through ky, fetch builds a Request, a Response, web streams and merged options per call,
 * and a combined AbortSignal for the timeout; that machinery cost about four times the CPU of the
 * exchange itself. Here one keep-alive pool per service takes the request and the body is read
 * straight off the socket (see http/buffered-request.ts).
 */

/** What the metrics hook receives once per HTTP attempt. */
export interface RequestInfo {
  /** Endpoint name, e.g. `startRun`. */
  endpoint: string;
  status?: number | undefined;
  errorCode?: string | undefined;
  ms: number;
}

export interface RequestSpec {
  /** Endpoint name for metrics and logs. */
  endpoint: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path from the base address, starting with `/`. */
  path: string;
  token: string;
  body?: unknown;
  kind: RequestKind;
  retry: RetryMode;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  notFound?: NotFoundMeaning | undefined;
  /** Non-2xx statuses handed back as a response instead of thrown (e.g. 404 "no feedback"). */
  acceptStatuses?: readonly number[] | undefined;
  /** Overrides the client's retry limit for this call. */
  retryLimit?: number | undefined;
}

export interface TransportOptions {
  baseUrl: string;
  budget: RequestBudget;
  retry: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  random: () => number;
  logger?: Logger | undefined;
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /**
   * The connection pool to the service. Default: a keep-alive pool of its own with one connection
   * per slot of `budget` (the budget already bounds requests in flight, so none waits in the pool).
   */
  dispatcher?: Dispatcher | undefined;
}

export type Transport = (spec: RequestSpec) => Promise<SuccessResponse>;

/** Where requests go: the pool, and the base address's path that every request path extends. */
interface Upstream {
  dispatcher: Dispatcher;
  basePath: string;
}

/** Creates the transport. Retries and timeouts are handled here, per endpoint. */
export function createTransport(options: TransportOptions): Transport {
  const base = new URL(options.baseUrl);
  const http: Upstream = {
    dispatcher: options.dispatcher ?? new Pool(base.origin, { connections: options.budget.limit }),
    basePath: base.pathname.replace(/\/+$/, ''),
  };
  return (spec) =>
    withRetry(() => options.budget.run(spec.kind, () => attemptOnce(http, spec, options), spec.signal), {
      mode: spec.retry,
      policy: spec.retryLimit === undefined ? options.retry : { ...options.retry, limit: spec.retryLimit },
      sleep: options.sleep,
      random: options.random,
      signal: spec.signal,
      onRetry: (error, retryNumber, delayMs) =>
        options.logger?.warn(
          {
            endpoint: spec.endpoint,
            method: spec.method,
            path: spec.path,
            retryNumber,
            delayMs,
            code: codeOf(error),
          },
          'agent service request failed; retrying',
        ),
    });
}

const codeOf = (error: unknown) => (error instanceof AgentApiError ? error.code : undefined);

async function attemptOnce(
  http: Upstream,
  spec: RequestSpec,
  options: TransportOptions,
): Promise<SuccessResponse> {
  const started = performance.now();
  let status: number | undefined;
  let errorCode: string | undefined;
  try {
    const response = await exchange(http, spec, options.now);
    status = response.status;
    return response;
  } catch (error) {
    status = error instanceof AgentApiError ? error.status : undefined;
    errorCode = codeOf(error) ?? 'aborted';
    throw error;
  } finally {
    const ms = Math.round(performance.now() - started);
    options.onRequest?.({ endpoint: spec.endpoint, status, errorCode, ms });
    options.logger?.debug(
      { endpoint: spec.endpoint, method: spec.method, path: spec.path, status, errorCode, ms },
      'agent service request',
    );
  }
}

/** Sends once and reads the whole body under one client-side timeout (connect, headers and body). */
async function exchange(http: Upstream, spec: RequestSpec, now: () => number): Promise<SuccessResponse> {
  const hasBody = spec.body !== undefined;
  try {
    const response = await bufferedRequest(
      http.dispatcher,
      {
        path: http.basePath + spec.path,
        method: spec.method,
        headers: hasBody
          ? { 'x-api-token': spec.token, accept: 'application/json', 'content-type': 'application/json' }
          : { 'x-api-token': spec.token, accept: 'application/json' },
        body: hasBody ? JSON.stringify(spec.body) : null,
      },
      { timeoutMs: spec.timeoutMs, signal: spec.signal },
    );
    return checkStatus(
      { status: response.status, text: response.text, method: spec.method, path: spec.path },
      response.headers['retry-after'],
      spec,
      now,
    );
  } catch (error) {
    throw asFailure(error, spec);
  }
}

function checkStatus(
  response: SuccessResponse,
  retryAfter: string | string[] | undefined,
  spec: RequestSpec,
  now: () => number,
): SuccessResponse {
  const { status } = response;
  if (status >= 200 && status < 300) return response;
  const failed = {
    ...response,
    retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now()),
    notFound: spec.notFound ?? 'unknown-endpoint',
  };
  const error = errorFromResponse(failed);
  // An accepted status (404 "no feedback") is still a region mismatch when the body says so.
  if (spec.acceptStatuses?.includes(status) && error.code !== AgentApiErrorCode.RegionMismatch)
    return response;
  throw error;
}

/** Our errors pass through; a caller's abort keeps its reason; the rest is Timeout or Network. */
function asFailure(error: unknown, spec: RequestSpec): unknown {
  if (error instanceof AgentApiError) return error;
  if (spec.signal?.aborted) return spec.signal.reason;
  const details = { method: spec.method, path: spec.path, cause: error };
  if (error instanceof RequestTimeoutError) {
    return new AgentApiError(
      AgentApiErrorCode.Timeout,
      `${spec.method} ${spec.path} got no answer within ${spec.timeoutMs} ms`,
      { method: spec.method, path: spec.path },
    );
  }
  return new AgentApiError(
    AgentApiErrorCode.Network,
    `${spec.method} ${spec.path} failed: ${networkReason(error)}`,
    details,
  );
}

/** The system error code (ECONNREFUSED…) under fetch's generic "fetch failed", if any. */
function networkReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
