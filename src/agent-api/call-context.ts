import type { z } from 'zod';
import type { RequestKind } from '../budget/request-budget.js';
import type { CallOptions } from '../conversation/ports.js';
import { AgentApiError, AgentApiErrorCode, InvalidResponseError } from './errors.js';
import { type FailedCall, type FailedResponse, regionMismatchIn } from './errors-from-failures.js';
import type { RetryMode } from './retry-policy.js';

/** What the resource files (agent.ts, accounts.ts, …) need to make their calls. */

/** Per-call options: the port's CallOptions plus a retry override for callers with their own loop. */
export interface AgentCallOptions extends CallOptions {
  /** Retries for this call instead of the client's `retry.limit` (e.g. 0 for the poll scheduler). */
  retryLimit?: number | undefined;
}

/** One request as the transport (service-http.ts) sends it; what a failure is told of it, and more. */
export interface RequestSpec extends FailedCall {
  /** Endpoint name for metrics and logs. */
  endpoint: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path from the base address, starting with `/`. */
  path: string;
  token: string;
  body?: unknown;
  kind: RequestKind;
  retry: RetryMode;
  /** Non-2xx statuses handed back as a response instead of thrown (e.g. 404 "no feedback"). */
  acceptStatuses?: readonly number[] | undefined;
  retryLimit?: number | undefined;
}

/** A call as an endpoint writes it: the agent token, kind `other` and the client's timeouts by default. */
export type EndpointCall = Omit<RequestSpec, 'token' | 'kind' | 'timeoutMs' | 'signal' | 'retryLimit'> &
  Partial<Pick<RequestSpec, 'token' | 'kind'>>;

/** A 2xx response (or an accepted status), its body read. */
export type SuccessResponse = Pick<FailedResponse, 'status' | 'text' | 'method' | 'path'>;

export interface CallContext {
  /** Sends one call (with its retries) and resolves with the response whose body has been read. */
  send(call: EndpointCall, options: AgentCallOptions | undefined): Promise<SuccessResponse>;
  accountToken: string | undefined;
  /** '' or e.g. '/v1' for account-management and export paths. */
  accountPathPrefix: string;
}

/** A path segment from a caller-supplied id: ids never add path segments or queries. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

/** The main-account token, or NotConfigured before any request is made. */
export function requireAccountToken(context: CallContext, endpoint: string): string {
  if (context.accountToken === undefined || context.accountToken === '') {
    const message = `${endpoint} needs the main-account token, which is not configured`;
    throw new AgentApiError(AgentApiErrorCode.NotConfigured, message);
  }
  return context.accountToken;
}

/** Status, method and path of a response, for an error about it. */
export const detailsOf = ({ status, method, path }: SuccessResponse) => ({ status, method, path });

/** A 2xx body by its schema, else InvalidResponseError, or the region mismatch (it may come as a 200). */
export function parseBody<S extends z.ZodType>(response: SuccessResponse, schema: S): z.output<S> {
  const details = detailsOf(response);
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch (cause) {
    throw (
      regionMismatchIn(response.text, details) ??
      new InvalidResponseError(['(body): not JSON'], { ...details, cause })
    );
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  // zod issues as `field: rule` lines; the root is written `(body)`.
  const issues = result.error.issues.map(
    (issue) => `${issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.')}: ${issue.message}`,
  );
  throw regionMismatchIn(response.text, details) ?? new InvalidResponseError(issues, details);
}
