/** What failed (a non-2xx or 3xx response, or what ky and fetch threw) as one of errors.ts's classes. */
import { isHTTPError, isTimeoutError } from 'ky';
import {
  AgentApiError,
  AgentApiErrorCode,
  type AgentApiErrorDetails,
  parseRegionMismatch,
  parseRetryAfter,
  RedirectRefusedError,
  RegionMismatchError,
} from './errors.js';

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
