import { isHTTPError, isTimeoutError } from 'ky';

/** The service's failures as our error classes; `asAgentApiFailure` turns ky's and fetch's into them. */

export const AgentApiErrorCode = {
  /** 401 on agent endpoints, 403 `{code, message}` on identity. */
  TokenRejected: 'token_rejected',
  /** 404 on run start: the agent is disabled (and its trigger is not Alert). */
  AgentDisabled: 'agent_disabled',
  /** 404 on another agent call (follow-up, status, enable, disable): unknown id or disabled agent. */
  AgentUnavailable: 'agent_unavailable',
  /** 503: the service is shut down for maintenance. */
  Maintenance: 'maintenance',
  /** "Account region <xx> differs from current server region <yy>", at any status. */
  RegionMismatch: 'region_mismatch',
  /** 429. */
  RateLimited: 'rate_limited',
  /** 409: a follow-up sent while the previous turn still runs. */
  TurnInProgress: 'turn_in_progress',
  /** 400 (or 422) with the service's errorCode/message. */
  RejectedRequest: 'rejected_request',
  /** 404 on a path the service does not know (or another 404 with no better meaning). */
  UnknownEndpoint: 'unknown_endpoint',
  /** Any other non-2xx status. */
  HttpError: 'http_error',
  /** A 3xx, never followed: the token would travel along (DESIGN "Service addresses"). */
  Redirected: 'redirected',
  /** DNS, connection refused or reset: no HTTP response at all. */
  Network: 'network',
  /** The client-side timeout fired before a response. */
  Timeout: 'timeout',
  /** A 2xx whose body does not match the schema. */
  InvalidResponse: 'invalid_response',
  /** A spec-valid 2xx holding none of what was asked (whoami's `{}`, an export without `hits`). */
  EmptyAnswer: 'empty_answer',
  /** ACCOUNT_API_TOKEN is not set, so account endpoints cannot be called. */
  NotConfigured: 'not_configured',
  /** A request the published spec would refuse (bad email, past int32), caught before sending. */
  InvalidInput: 'invalid_input',
} as const;
export type AgentApiErrorCode = (typeof AgentApiErrorCode)[keyof typeof AgentApiErrorCode];

/** What an AgentApiError carries besides its code, and its cause. */
export type AgentApiErrorDetails = Partial<Omit<AgentApiError, keyof Error | 'code'>> & { cause?: unknown };

/** Every failure of the agent-api client is one of these. */
export class AgentApiError extends Error {
  readonly code: AgentApiErrorCode;
  readonly status: number | undefined;
  /** The service's own message (`message` of its error body), when present. */
  readonly serviceMessage: string | undefined;
  readonly serviceErrorCode: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  /** Path only: never the host's query or headers (no tokens). */
  readonly path: string | undefined;
  /** From a 429/503 `Retry-After` header: how long the service asked the client to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(code: AgentApiErrorCode, message: string, { cause, ...rest }: AgentApiErrorDetails = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AgentApiError';
    this.code = code;
    Object.assign(this, rest);
  }
}

/** A valid token sent to another region's API address. */
export class RegionMismatchError extends AgentApiError {
  constructor(
    readonly accountRegion: string,
    readonly serverRegion: string,
    details: AgentApiErrorDetails = {},
  ) {
    const message = `account region ${accountRegion} differs from server region ${serverRegion}`;
    super(AgentApiErrorCode.RegionMismatch, message, details);
    this.name = 'RegionMismatchError';
  }
}

/** A 3xx answer, not followed: `address` answered, `location` is where it pointed (origins only). */
export class RedirectRefusedError extends AgentApiError {
  constructor(
    readonly address: string,
    readonly location: string | undefined,
    details: AgentApiErrorDetails = {},
  ) {
    super(
      AgentApiErrorCode.Redirected,
      `${details.method ?? 'a request'} ${details.path ?? ''} to ${address} answered ${details.status ?? '3xx'} with a redirect${location ? ` to ${location}` : ''}, which is not followed`,
      details,
    );
    this.name = 'RedirectRefusedError';
  }
}

/** A 2xx response whose body broke the schema: which field, which rule. */
export class InvalidResponseError extends AgentApiError {
  readonly issues: string[];
  constructor(issues: string[], details: AgentApiErrorDetails = {}) {
    super(AgentApiErrorCode.InvalidResponse, `invalid response: ${issues.join('; ')}`, details);
    this.name = 'InvalidResponseError';
    this.issues = issues;
  }
}

/** A spec-valid answer without what the call is for; `message` reads as a sentence's end. */
export class EmptyAnswerError extends AgentApiError {
  constructor(message: string, details: AgentApiErrorDetails = {}) {
    super(AgentApiErrorCode.EmptyAnswer, message, details);
    this.name = 'EmptyAnswerError';
  }
}

/** Whether `value` is one of the client's failures. */
export const isAgentApiError = (value: unknown): value is AgentApiError => value instanceof AgentApiError;

const REGION_MISMATCH = /Account region ([a-z0-9-]+) differs from current server region ([a-z0-9-]+)/i;

/** Finds the region-mismatch sentence in any response text; both regions, or undefined. */
export function parseRegionMismatch(text: string) {
  const match = REGION_MISMATCH.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { accountRegion: match[1], serverRegion: match[2] };
}

/** What a 404 means for one endpoint: the seed gives it different meanings per endpoint. */
export type NotFoundMeaning = 'unknown-endpoint' | 'agent-disabled' | 'agent-unavailable';

/** A non-2xx response, its body read. */
export interface FailedResponse {
  status: number;
  text: string;
  method: string;
  path: string;
  retryAfterMs?: number | undefined;
  notFound: NotFoundMeaning;
}

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * The service's error bodies in each shape: `{errorCode, message, requestId}`, `{message}`,
 * `{errorMessage}`, a bare JSON string, identity's `{code, message}`; anything else yields nothing.
 */
function readServiceErrorBody(
  text: string,
): Pick<AgentApiErrorDetails, 'serviceMessage' | 'serviceErrorCode' | 'requestId'> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof body === 'string') return body.trim() === '' ? {} : { serviceMessage: body };
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  return {
    serviceMessage: asString(record.message) ?? asString(record.errorMessage),
    serviceErrorCode: asString(record.errorCode) ?? asString(record.code),
    requestId: asString(record.requestId),
  };
}

/** The region-mismatch error when the text carries its sentence (checked before any status). */
export function regionMismatchIn(text: string, details: AgentApiErrorDetails) {
  const regions = parseRegionMismatch(text);
  return regions && new RegionMismatchError(regions.accountRegion, regions.serverRegion, details);
}

const STATUS_CODES: Partial<Record<number, AgentApiErrorCode>> = {
  400: AgentApiErrorCode.RejectedRequest,
  422: AgentApiErrorCode.RejectedRequest,
  // 403 is what the identity endpoint answers to a bad token ("Insufficient privileges"), and what
  // a token without rights to an endpoint gets: either way the token is the problem.
  401: AgentApiErrorCode.TokenRejected,
  403: AgentApiErrorCode.TokenRejected,
  409: AgentApiErrorCode.TurnInProgress,
  429: AgentApiErrorCode.RateLimited,
  503: AgentApiErrorCode.Maintenance,
};

const NOT_FOUND_CODES: Record<NotFoundMeaning, AgentApiErrorCode> = {
  'unknown-endpoint': AgentApiErrorCode.UnknownEndpoint,
  'agent-disabled': AgentApiErrorCode.AgentDisabled,
  'agent-unavailable': AgentApiErrorCode.AgentUnavailable,
};

/** The typed error for a non-2xx response. Never includes request headers (the token lives there). */
export function errorFromResponse(response: FailedResponse): AgentApiError {
  const { status, method, path, text } = response;
  const body = readServiceErrorBody(text);
  const details = { status, method, path, retryAfterMs: response.retryAfterMs, ...body };
  const mismatch = regionMismatchIn(text, details);
  if (mismatch) return mismatch;
  const code =
    status === 404
      ? NOT_FOUND_CODES[response.notFound]
      : (STATUS_CODES[status] ?? AgentApiErrorCode.HttpError);
  const suffix = body.serviceMessage ? `: ${body.serviceMessage}` : '';
  return new AgentApiError(code, `${method} ${path} answered ${status} (${code})${suffix}`, details);
}

/** What the boundary needs to know about the call that failed. */
export interface FailedCall {
  method: string;
  path: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  notFound?: NotFoundMeaning | undefined;
}

/** undici's own timeouts once headers are in (ky's `timeout` covers the wait for them). */
const TIMEOUT_CODES = new Set(['UND_ERR_BODY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** Our error for what ky threw (HTTPError by status, timeouts, Network), or the caller's abort reason. */
export async function asAgentApiFailure(error: unknown, call: FailedCall): Promise<unknown> {
  if (error instanceof AgentApiError) return error;
  if (call.signal?.aborted) return call.signal.reason;
  const { method, path } = call;
  if (isHTTPError(error)) {
    const { response } = error;
    if (response.status >= 300 && response.status < 400)
      return redirectRefused(error.request.url, response, call);
    return errorFromResponse({
      status: response.status,
      // The body is read once, here: it carries the service's message or the region sentence.
      text: await response.text().catch(() => ''),
      method,
      path,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()),
      notFound: call.notFound ?? 'unknown-endpoint',
    });
  }
  const reason = systemCode(error);
  if (isTimeoutError(error) || (reason !== undefined && TIMEOUT_CODES.has(reason))) {
    const message = `${method} ${path} got no answer within ${call.timeoutMs} ms`;
    return new AgentApiError(AgentApiErrorCode.Timeout, message, { method, path });
  }
  const message = `${method} ${path} failed: ${reason ?? (error instanceof Error ? error.message : String(error))}`;
  return new AgentApiError(AgentApiErrorCode.Network, message, { method, path, cause: error });
}

/** A 3xx (fetch runs with `redirect: 'manual'`): origins only, a redirect's path could carry anything. */
function redirectRefused(requestUrl: string, response: Response, call: FailedCall): RedirectRefusedError {
  const address = new URL(requestUrl).origin;
  const location = response.headers.get('location');
  const target =
    location && URL.canParse(location, requestUrl) ? new URL(location, requestUrl).origin : undefined;
  return new RedirectRefusedError(address, target, {
    status: response.status,
    method: call.method,
    path: call.path,
  });
}

/** The system error code (ECONNREFUSED…) under fetch's generic "fetch failed", if any. */
function systemCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
