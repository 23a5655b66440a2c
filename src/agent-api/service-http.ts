import ky, { type KyInstance, type NormalizedOptions, type Options } from 'ky';
import { Agent, fetch as undiciFetch } from 'undici';
import type { RequestBudget, RequestKind } from '../budget/request-budget.js';
import type { Logger } from '../runtime/logger.js';
import { type AttemptDeps, CallAttempts, logsDebug, type RequestInfo } from './attempts.js';
import { AgentApiErrorCode, errorFromResponse, type NotFoundMeaning } from './errors.js';
import type { SuccessResponse } from './parse-body.js';
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
 * Whether Node's global fetch is an undici older than 7 (Node 20 bundles 6.x): it spends about a
 * tenth more CPU per exchange under ky than the undici package's fetch. Node 24 bundles 7.x,
 * where handing ky's Request over costs more than it saves (bench/README.md).
 */
const globalFetchIsOld = Number((process.versions.undici ?? '0').split('.')[0]) < 7;

/**
 * ky's `fetch`: a keep-alive connection pool, one connection per slot of the budget (the budget
 * already bounds requests in flight, so none waits in the pool). Where the global fetch is the
 * old bundled undici, the undici package's own fetch serves instead: ky hands over the global
 * `Request` it built, and undici's fetch accepts only its own copy of the class, so the request's
 * URL, method, headers, signal and (already serialised) body are passed on as they are.
 */
function keepAliveFetch(connections: number, bodyTimeout: number): typeof fetch {
  const dispatcher = new Agent({ connections, bodyTimeout });
  // Node's fetch types name its bundled copy of undici's Dispatcher; this Agent is the package's.
  if (!globalFetchIsOld)
    return (input, init) => fetch(input, { ...init, dispatcher } as unknown as RequestInit);
  return async (input, init) => {
    const request = input as Request;
    const body = request.body === null ? undefined : await request.text();
    const response = await undiciFetch(request.url, {
      method: request.method,
      // A global Headers is iterable as [name, value] pairs, which undici reads as a sequence.
      headers: request.headers as unknown as [string, string][],
      body,
      signal: request.signal,
      redirect: request.redirect,
      dispatcher,
      ...(init as object),
    });
    // undici's Response has the global one's shape; ky and parse-body read status, headers, text.
    return response as unknown as Response;
  };
}

/** ky's `context` of one call (a type, not an interface: ky's option is a record). */
type CallContext = {
  attempts: CallAttempts;
  token: string;
};

const contextOf = (options: NormalizedOptions) => options.context as unknown as CallContext;

/**
 * The client's one ky instance: base address, fetch and hooks never change, and a call carries
 * only what is its own. The headers are set on the request in `beforeRequest` (from the call's
 * ky `context`, where the hooks also find its attempts) rather than as ky `headers` options: ky
 * merges option headers by building several `Headers` objects per call, about a tenth of a call's
 * CPU on Node 20 (bench/README.md); setting two headers on the request it built costs little.
 */
function createKy(options: ServiceHttpOptions): KyInstance {
  return ky.create({
    prefixUrl: options.baseUrl,
    // A redirect is never followed (DESIGN "Service addresses"): fetch would resend the request,
    // x-api-token included, to wherever the answer points. ky-failures.ts turns the 3xx into
    // RedirectRefusedError, which names the address.
    redirect: 'manual',
    fetch: keepAliveFetch(options.budget.limit, options.bodyTimeoutMs),
    hooks: {
      beforeRequest: [
        (request, kyOptions) => {
          const { attempts, token } = contextOf(kyOptions);
          request.headers.set('accept', 'application/json');
          request.headers.set('x-api-token', token);
          return attempts.begin();
        },
      ],
      beforeRetry: [
        ({ options: kyOptions, retryCount }) => contextOf(kyOptions).attempts.logRetry(retryCount),
      ],
    },
  });
}

/** ky's options for one call: only what differs from the instance's. */
function callOptions(spec: RequestSpec, attempts: CallAttempts, retry: Options['retry']): Options {
  const context: CallContext = { attempts, token: spec.token };
  const options: Options = { method: spec.method, timeout: spec.timeoutMs, retry, context };
  if (spec.body !== undefined) options.json = spec.body;
  if (spec.signal !== undefined) options.signal = spec.signal;
  const accepted = spec.acceptStatuses;
  if (accepted !== undefined) options.throwHttpErrors = (status) => !accepted.includes(status);
  return options;
}

/** Sends calls through ky; each call gets its own attempts (budget slots, logs, metrics). */
export function createServiceHttp(options: ServiceHttpOptions): SendRequest {
  const http = createKy(options);
  const retrySettings = kyRetrySettings(options.retry, options.random);
  const deps: AttemptDeps = {
    budget: options.budget,
    policy: options.retry,
    logger: options.logger,
    onRequest: options.onRequest,
    debug: logsDebug(options.logger),
  };
  return async (spec) => {
    const attempts = new CallAttempts(spec, deps);
    const limit = spec.retryLimit ?? options.retry.limit;
    const retry = limit > 0 ? { ...retrySettings, limit, shouldRetry: attempts.shouldRetry } : 0;
    let response: Response;
    let text: string;
    try {
      response = await http(spec.path.slice(1), callOptions(spec, attempts, retry));
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
