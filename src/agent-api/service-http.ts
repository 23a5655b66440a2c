import ky, { type KyInstance } from 'ky';
import { Agent } from 'undici';
import type { Logger } from '../conversation/ports.js';
import { type AttemptDeps, CallAttempts, type RequestInfo } from './attempts.js';
import { AgentApiErrorCode } from './errors.js';
import type { SuccessResponse } from './parse-body.js';
import type { RequestBudget, RequestKind } from './request-budget.js';
import { errorFromResponse, type NotFoundMeaning } from './response-errors.js';
import { kyRetrySettings, type RetryMode, type RetryPolicy } from './retry-policy.js';

/**
 * ky, configured for the agent service: one keep-alive undici Agent under it, ky's `retry` with
 * the call's mode (retry-policy.ts), ky's `timeout` per call, its hooks holding a request-budget
 * slot per attempt and logging (attempts.ts), and its errors turned into ours at one boundary
 * (ky-failures.ts). Everything endpoint-specific (paths, schemas) lives in the resource files.
 */

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

/** Sends one call (with its retries) and resolves with the response whose body has been read. */
export type SendRequest = (spec: RequestSpec) => Promise<SuccessResponse>;

export interface ServiceHttpOptions {
  /** The service's base address; request paths extend its path. */
  baseUrl: string;
  budget: RequestBudget;
  /**
   * The longest pause between two chunks of a response body. ky's `timeout` ends once the headers
   * are in; this bounds a body that stalls after them (the Timeout error too).
   */
  bodyTimeoutMs: number;
  retry: RetryPolicy;
  /** Jitter source in [0, 1). */
  random: () => number;
  logger?: Logger | undefined;
  onRequest?: ((info: RequestInfo) => void) | undefined;
}

/**
 * The keep-alive connection pool handed to ky: one connection per slot of the budget (the budget
 * already bounds requests in flight, so none waits in the pool). ky builds a global `Request`, which
 * only the global fetch accepts (undici's own fetch is another copy of the classes on Node 20), so
 * ky's `fetch` is the global one with this Agent as its dispatcher.
 */
function keepAliveFetch(connections: number, bodyTimeout: number): typeof fetch {
  const dispatcher = new Agent({ connections, bodyTimeout });
  // Node's fetch types name its bundled copy of undici's Dispatcher; this Agent is the package's.
  return (input, init) => fetch(input, { ...init, dispatcher } as unknown as RequestInit);
}

/** The one ky instance of a client; each call gets its own attempts (budget slots, logs, metrics). */
export function createServiceHttp(options: ServiceHttpOptions): SendRequest {
  const http: KyInstance = ky.create({
    prefixUrl: options.baseUrl,
    fetch: keepAliveFetch(options.budget.limit, options.bodyTimeoutMs),
  });
  const retrySettings = kyRetrySettings(options.retry, options.random);
  const deps: AttemptDeps = {
    budget: options.budget,
    policy: options.retry,
    logger: options.logger,
    onRequest: options.onRequest,
  };
  return async (spec) => {
    const attempts = new CallAttempts(spec, deps);
    const limit = spec.retryLimit ?? options.retry.limit;
    let response: Response;
    let text: string;
    try {
      response = await http(spec.path.slice(1), {
        method: spec.method,
        headers: { 'x-api-token': spec.token, accept: 'application/json' },
        json: spec.body,
        timeout: spec.timeoutMs,
        signal: spec.signal,
        throwHttpErrors: spec.acceptStatuses ? (status) => !spec.acceptStatuses?.includes(status) : true,
        retry: limit > 0 ? { ...retrySettings, limit, shouldRetry: attempts.shouldRetry } : 0,
        hooks: { beforeRequest: [attempts.begin], beforeRetry: [attempts.logRetry] },
      });
      text = await response.text();
    } catch (error) {
      throw await attempts.failed(error);
    }
    attempts.succeeded(response.status);
    return accepted({ status: response.status, text, method: spec.method, path: spec.path }, spec);
  };
}

/** A 2xx, or a status the call accepts (404 "no feedback") unless its body is a region mismatch. */
function accepted(response: SuccessResponse, spec: RequestSpec): SuccessResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const error = errorFromResponse({ ...response, notFound: spec.notFound ?? 'unknown-endpoint' });
  if (error.code === AgentApiErrorCode.RegionMismatch) throw error;
  return response;
}
