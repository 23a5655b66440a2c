/**
 * The agent service's failures as the project's own error classes: ky's HTTPError and
 * TimeoutError and fetch's network failures are translated at one boundary (ky-failures.ts), so
 * nothing past agent-api/ knows ky.
 * `describeError` in slack/views turns each code into one sentence a person can act on.
 */

export const AgentApiErrorCode = {
  /** 401 on agent endpoints, 403 `{code, message}` on identity. */
  TokenRejected: 'token_rejected',
  /** 404 on run start: the agent is disabled (and its trigger is not Alert). */
  AgentDisabled: 'agent_disabled',
  /**
   * 404 on another call about one agent (follow-up, status, enable, disable): the agent id is
   * unknown to the service or the agent is disabled. The address itself was checked at start-up.
   */
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
  /**
   * A 3xx: the address answered with a redirect, which is never followed (the token would travel
   * to wherever it points). The error names the address that answered (DESIGN "Service addresses").
   */
  Redirected: 'redirected',
  /** DNS, connection refused or reset: no HTTP response at all. */
  Network: 'network',
  /** The client-side timeout fired before a response. */
  Timeout: 'timeout',
  /** A 2xx whose body does not match the schema. */
  InvalidResponse: 'invalid_response',
  /**
   * A 2xx whose body the vendor's spec allows but which holds none of what was asked: whoami's
   * `{}` (no account), an export without `hits`. The request worked; the message says what the
   * answer lacked, in words (not a schema dump).
   */
  EmptyAnswer: 'empty_answer',
  /** ACCOUNT_API_TOKEN is not set, so account endpoints cannot be called. */
  NotConfigured: 'not_configured',
  /**
   * A request the service's published spec would refuse (an email that is not an address, a
   * number past int32), caught before sending: nothing was sent. The message names the value.
   */
  InvalidInput: 'invalid_input',
} as const;
export type AgentApiErrorCode = (typeof AgentApiErrorCode)[keyof typeof AgentApiErrorCode];

export interface AgentApiErrorDetails {
  status?: number | undefined;
  /** The service's own message (`message` of its error body), when present. */
  serviceMessage?: string | undefined;
  /** The service's `errorCode`, when present. */
  serviceErrorCode?: string | undefined;
  requestId?: string | undefined;
  method?: string | undefined;
  /** Path only: never the host's query or headers (no tokens). */
  path?: string | undefined;
  /** From a 429/503 `Retry-After` header: how long the service asked the client to wait. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

/** Every failure of the agent-api client is one of these. */
export class AgentApiError extends Error {
  readonly code: AgentApiErrorCode;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly serviceErrorCode: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(code: AgentApiErrorCode, message: string, details: AgentApiErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AgentApiError';
    this.code = code;
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.serviceErrorCode = details.serviceErrorCode;
    this.requestId = details.requestId;
    this.method = details.method;
    this.path = details.path;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** A valid token sent to another region's API address. */
export class RegionMismatchError extends AgentApiError {
  readonly accountRegion: string;
  readonly serverRegion: string;
  constructor(accountRegion: string, serverRegion: string, details: AgentApiErrorDetails = {}) {
    super(
      AgentApiErrorCode.RegionMismatch,
      `account region ${accountRegion} differs from server region ${serverRegion}`,
      details,
    );
    this.name = 'RegionMismatchError';
    this.accountRegion = accountRegion;
    this.serverRegion = serverRegion;
  }
}

/**
 * A 3xx answer: not followed. `address` is the origin that answered (the connection's address);
 * `location` is where it pointed, as an origin only (never its path or query).
 */
export class RedirectRefusedError extends AgentApiError {
  readonly address: string;
  readonly location: string | undefined;
  constructor(address: string, location: string | undefined, details: AgentApiErrorDetails = {}) {
    super(
      AgentApiErrorCode.Redirected,
      `${details.method ?? 'a request'} ${details.path ?? ''} to ${address} answered ${details.status ?? '3xx'} with a redirect${location ? ` to ${location}` : ''}, which is not followed`,
      details,
    );
    this.name = 'RedirectRefusedError';
    this.address = address;
    this.location = location;
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

export function isAgentApiError(value: unknown): value is AgentApiError {
  return value instanceof AgentApiError;
}

const REGION_MISMATCH = /Account region ([a-z0-9-]+) differs from current server region ([a-z0-9-]+)/i;

/** Finds the region-mismatch sentence in any response text; both regions, or undefined. */
export function parseRegionMismatch(
  text: string,
): { accountRegion: string; serverRegion: string } | undefined {
  const match = REGION_MISMATCH.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { accountRegion: match[1], serverRegion: match[2] };
}
