import {
  AgentApiError,
  AgentApiErrorCode,
  type AgentApiErrorDetails,
  parseRegionMismatch,
  RegionMismatchError,
} from './errors.js';

/**
 * Turns a non-2xx response into the project's error classes. The seed names only some status
 * codes; the mapping below is the one every caller (and the Slack sentences) relies on.
 */

/** What a 404 means for one endpoint: the seed gives it different meanings per endpoint. */
export type NotFoundMeaning = 'unknown-endpoint' | 'agent-disabled' | 'agent-unavailable';

export interface FailedResponse {
  status: number;
  text: string;
  method: string;
  path: string;
  retryAfterMs?: number | undefined;
  notFound: NotFoundMeaning;
}

interface ServiceErrorBody {
  serviceMessage?: string | undefined;
  serviceErrorCode?: string | undefined;
  requestId?: string | undefined;
}

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/**
 * Reads the service's error bodies in each of their shapes: `{errorCode, message, requestId,
 * parameters}` (most), `{message}`, `{errorMessage}`, a bare JSON string ("could not find sub
 * account 1234567") and the identity endpoint's `{code, message}`; anything else yields nothing.
 */
export function readServiceErrorBody(text: string): ServiceErrorBody {
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
export function regionMismatchIn(
  text: string,
  details: AgentApiErrorDetails,
): RegionMismatchError | undefined {
  const regions = parseRegionMismatch(text);
  if (!regions) return undefined;
  return new RegionMismatchError(regions.accountRegion, regions.serverRegion, details);
}

function codeForStatus(status: number, notFound: NotFoundMeaning): AgentApiErrorCode {
  switch (status) {
    case 400:
    case 422:
      return AgentApiErrorCode.RejectedRequest;
    // 403 is what the identity endpoint answers to a bad token ("Insufficient privileges"),
    // and what a token without rights to an endpoint gets: either way the token is the problem.
    case 401:
    case 403:
      return AgentApiErrorCode.TokenRejected;
    case 404:
      if (notFound === 'agent-disabled') return AgentApiErrorCode.AgentDisabled;
      if (notFound === 'agent-unavailable') return AgentApiErrorCode.AgentUnavailable;
      return AgentApiErrorCode.UnknownEndpoint;
    case 409:
      return AgentApiErrorCode.TurnInProgress;
    case 429:
      return AgentApiErrorCode.RateLimited;
    case 503:
      return AgentApiErrorCode.Maintenance;
    default:
      return AgentApiErrorCode.HttpError;
  }
}

/** The typed error for a non-2xx response. Never includes request headers (the token lives there). */
export function errorFromResponse(response: FailedResponse): AgentApiError {
  const body = readServiceErrorBody(response.text);
  const details: AgentApiErrorDetails = {
    status: response.status,
    method: response.method,
    path: response.path,
    retryAfterMs: response.retryAfterMs,
    ...body,
  };
  const mismatch = regionMismatchIn(response.text, details);
  if (mismatch) return mismatch;
  const code = codeForStatus(response.status, response.notFound);
  const suffix = body.serviceMessage ? `: ${body.serviceMessage}` : '';
  return new AgentApiError(
    code,
    `${response.method} ${response.path} answered ${response.status} (${code})${suffix}`,
    details,
  );
}
