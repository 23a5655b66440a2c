import ky, { type KyInstance, type NormalizedOptions, type Options } from 'ky';
import { Agent, fetch as undiciFetch } from 'undici';
import type { RequestBudget } from '../budget/request-budget.js';
import type { Logger } from '../runtime/logger.js';
import { accountCalls } from './accounts.js';
import { agentCalls } from './agent.js';
import { type AttemptDeps, CallAttempts, logsDebug, type RequestInfo } from './attempts.js';
import type { CallContext, RequestSpec, SuccessResponse } from './call-context.js';
import { AgentApiErrorCode } from './errors.js';
import { errorFromResponse } from './errors-from-failures.js';
import { exportCalls } from './export.js';
import { feedbackCalls } from './feedback.js';
import { identityCalls } from './identity.js';
import { DEFAULT_RETRY_POLICY, kyRetrySettings, type RetryPolicy } from './retry-policy.js';

/** The agent service client: one ky instance handed to the resource files, whose calls are its methods. */

export interface AgentApiOptions {
  /** The account's region-specific base address, normalised (no trailing slash). */
  baseUrl: string;
  /** Token of the account that owns the agents (agent, identity and export endpoints). */
  token: string;
  /** Main-account token for sub-account management; without it those calls throw NotConfigured. */
  accountToken?: string | undefined;
  /** '' (the seed's paths) or e.g. '/v1' for account-management and export paths. Default ''. */
  accountPathPrefix?: string | undefined;
  /** The process-wide cap on requests in flight. */
  budget: RequestBudget;
  /** Client-side timeout per request, until the response's headers (ky's `timeout`). Default 15000. */
  requestTimeoutMs?: number | undefined;
  /** Client-side timeout of a status long poll. Default 60000. */
  statusTimeoutMs?: number | undefined;
  /** Each setting defaults to DEFAULT_RETRY_POLICY's. */
  retry?: { [Setting in keyof RetryPolicy]?: number | undefined } | undefined;
  logger?: Logger | undefined;
  /** Metrics hook, called once per HTTP attempt. */
  onRequest?: ((info: RequestInfo) => void) | undefined;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: (() => number) | undefined;
}

/** One typed method per service endpoint. Structurally satisfies the conversation's AgentRunsPort. */
export type AgentApi = ReturnType<typeof createAgentApi>;

/** Builds the client. Makes no request until a method is called. */
export function createAgentApi(options: AgentApiOptions) {
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const statusTimeoutMs = options.statusTimeoutMs ?? 60_000;
  const overrides = Object.entries(options.retry ?? {}).filter(([, value]) => value !== undefined);
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(overrides) };
  const pooled = keepAliveFetch(options.budget.limit, Math.max(requestTimeoutMs, statusTimeoutMs));
  const http = createKy(options.baseUrl, pooled);
  const retrySettings = kyRetrySettings(policy, options.random ?? Math.random);
  const { budget, logger, onRequest } = options;
  const deps: AttemptDeps = { budget, policy, logger, onRequest, debug: logsDebug(logger) };

  /** Sends one call through ky, with its own attempts (budget slots, logs, metrics). */
  async function send(spec: RequestSpec): Promise<SuccessResponse> {
    const attempts = new CallAttempts(spec, deps);
    const limit = spec.retryLimit ?? policy.limit;
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
  }

  const context: CallContext = {
    send: (call, callOptions) =>
      send({
        token: options.token,
        kind: 'other',
        ...call,
        signal: callOptions?.signal,
        timeoutMs: callOptions?.timeoutMs ?? (call.kind === 'poll' ? statusTimeoutMs : requestTimeoutMs),
        retryLimit: callOptions?.retryLimit,
      }),
    accountToken: options.accountToken,
    accountPathPrefix: options.accountPathPrefix ?? '',
  };
  return {
    ...agentCalls(context),
    ...feedbackCalls(context),
    ...accountCalls(context),
    ...exportCalls(context),
    ...identityCalls(context),
  };
}

/**
 * Whether the global fetch is undici < 7 (Node 20): about a tenth more CPU per exchange under ky
 * than the undici package's fetch; on 7.x handing the Request over costs more (bench/README.md).
 */
const globalFetchIsOld = Number((process.versions.undici ?? '0').split('.')[0]) < 7;

/**
 * ky's `fetch`: a keep-alive pool, one connection per budget slot; `bodyTimeout` bounds the pause
 * between body chunks (ky's `timeout` ends at the headers). On old undici the package's fetch
 * serves, which takes only its own Request class, so the request's parts are passed on.
 */
export function keepAliveFetch(connections: number, bodyTimeout: number): typeof fetch {
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
    // undici's Response has the global one's shape; ky and send() read status, headers, text.
    return response as unknown as Response;
  };
}

/** ky's `context` of one call (a type, not an interface: ky's option is a record). */
type KyCallContext = { attempts: CallAttempts; token: string };

const contextOf = (options: NormalizedOptions) => options.context as unknown as KyCallContext;

/**
 * The client's one ky instance. Headers are set in `beforeRequest` from the call's ky `context`,
 * not as `headers` options: ky's merging of those costs a tenth of a call's CPU on Node 20 (bench/README.md).
 */
function createKy(baseUrl: string, fetch: typeof globalThis.fetch): KyInstance {
  return ky.create({
    prefixUrl: baseUrl,
    // Never followed (DESIGN "Service addresses"): fetch would resend x-api-token to wherever it
    // points. errors.ts turns the 3xx into RedirectRefusedError.
    redirect: 'manual',
    fetch,
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
  const context: KyCallContext = { attempts, token: spec.token };
  const options: Options = { method: spec.method, timeout: spec.timeoutMs, retry, context };
  if (spec.body !== undefined) options.json = spec.body;
  if (spec.signal !== undefined) options.signal = spec.signal;
  const accepted = spec.acceptStatuses;
  if (accepted !== undefined) options.throwHttpErrors = (status) => !accepted.includes(status);
  return options;
}

/** A 2xx, or a status the call accepts (404 "no feedback") unless its body is a region mismatch. */
function accepted(response: SuccessResponse, spec: RequestSpec): SuccessResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const error = errorFromResponse({ ...response, notFound: spec.notFound ?? 'unknown-endpoint' });
  if (error.code === AgentApiErrorCode.RegionMismatch) throw error;
  return response;
}
