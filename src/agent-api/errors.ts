/** The service's failures as our error classes; errors-from-failures.ts turns what failed into them. */

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

export const isAgentApiError = (value: unknown): value is AgentApiError => value instanceof AgentApiError;

const REGION_MISMATCH = /Account region ([a-z0-9-]+) differs from current server region ([a-z0-9-]+)/i;

/** Finds the region-mismatch sentence in any response text; both regions, or undefined. */
export function parseRegionMismatch(text: string) {
  const match = REGION_MISMATCH.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { accountRegion: match[1], serverRegion: match[2] };
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
