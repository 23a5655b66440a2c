import { isHTTPError, isTimeoutError } from 'ky';
import { AgentApiError, AgentApiErrorCode, RedirectRefusedError } from './errors.js';
import { errorFromResponse, type NotFoundMeaning } from './response-errors.js';
import { parseRetryAfter } from './retry-policy.js';

/**
 * The one boundary where ky's failures become the project's errors: an `HTTPError` becomes the
 * coded error of its status and body (the service's odd error bodies are read in
 * response-errors.ts), a `TimeoutError` becomes Timeout, anything fetch threw becomes Network
 * with its system code, and a caller's abort keeps the caller's reason.
 */

/** What the boundary needs to know about the call that failed. */
export interface FailedCall {
  method: string;
  /** Path only: never the host's query or headers (no tokens). */
  path: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  notFound?: NotFoundMeaning | undefined;
}

/** undici's own timeouts once headers are in (ky's `timeout` covers the wait for them). */
const TIMEOUT_CODES = new Set(['UND_ERR_BODY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']);

/** Our error for `error`, or the caller's abort reason when the caller gave up. */
export async function asAgentApiFailure(error: unknown, call: FailedCall): Promise<unknown> {
  if (error instanceof AgentApiError) return error;
  if (call.signal?.aborted) return call.signal.reason;
  if (isHTTPError(error)) {
    const { response } = error;
    if (isRedirect(response.status)) return redirectRefused(error.request.url, response, call);
    return errorFromResponse({
      status: response.status,
      // The body is read once, here: it carries the service's message or the region sentence.
      text: await response.text().catch(() => ''),
      method: call.method,
      path: call.path,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()),
      notFound: call.notFound ?? 'unknown-endpoint',
    });
  }
  const reason = systemCode(error);
  if (isTimeoutError(error) || (reason !== undefined && TIMEOUT_CODES.has(reason))) {
    return new AgentApiError(
      AgentApiErrorCode.Timeout,
      `${call.method} ${call.path} got no answer within ${call.timeoutMs} ms`,
      { method: call.method, path: call.path },
    );
  }
  return new AgentApiError(
    AgentApiErrorCode.Network,
    `${call.method} ${call.path} failed: ${reason ?? (error instanceof Error ? error.message : String(error))}`,
    { method: call.method, path: call.path, cause: error },
  );
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/**
 * A 3xx (fetch runs with `redirect: 'manual'`, service-http.ts): the answering address and where
 * it pointed, origins only — a redirect's path or query could carry anything.
 */
function redirectRefused(requestUrl: string, response: Response, call: FailedCall): RedirectRefusedError {
  const address = new URL(requestUrl).origin;
  const location = response.headers.get('location');
  let target: string | undefined;
  try {
    target = location ? new URL(location, requestUrl).origin : undefined;
  } catch {
    target = undefined;
  }
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
