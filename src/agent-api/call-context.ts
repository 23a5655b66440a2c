import type { CallOptions } from '../conversation/ports.js';
import { AgentApiError, AgentApiErrorCode } from './errors.js';
import type { SendRequest } from './service-http.js';

/** Per-call options: the port's CallOptions plus a retry override for callers with their own loop. */
export interface AgentCallOptions extends CallOptions {
  /** Retries for this call instead of the client's `retry.limit` (e.g. 0 for the poll scheduler). */
  retryLimit?: number | undefined;
}

/** What every endpoint function needs: ky's send and the client's settings. */
export interface CallContext {
  send: SendRequest;
  agentToken: string;
  accountToken: string | undefined;
  /** '' or e.g. '/v1' for account-management and export paths. */
  accountPathPrefix: string;
  requestTimeoutMs: number;
  statusTimeoutMs: number;
}

/** A path segment from a caller-supplied id: ids never add path segments or queries. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

/** The main-account token, or NotConfigured before any request is made. */
export function requireAccountToken(context: CallContext, endpoint: string): string {
  if (context.accountToken === undefined || context.accountToken === '') {
    throw new AgentApiError(
      AgentApiErrorCode.NotConfigured,
      `${endpoint} needs the main-account token, which is not configured`,
    );
  }
  return context.accountToken;
}

/** The per-call fields of a request spec. */
export function callFields(options: AgentCallOptions | undefined, defaultTimeoutMs: number) {
  return {
    signal: options?.signal,
    timeoutMs: options?.timeoutMs ?? defaultTimeoutMs,
    retryLimit: options?.retryLimit,
  };
}
