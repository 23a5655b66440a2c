import { z } from 'zod';
import { type AgentCallOptions, type CallContext, callFields } from './call-context.js';
import { AgentApiErrorCode, isAgentApiError } from './errors.js';
import { parseBody } from './parse-body.js';

/** The identity check: which account a token belongs to. */

export const identitySchema = z.looseObject({
  accountId: z.number().int(),
  accountName: z.string(),
});
export type Identity = z.infer<typeof identitySchema>;

/**
 * GET /v2/whoami with the agent token. A bad token gets 403 `{code, message}` here (not 401),
 * which the transport maps to TokenRejected with the service's message.
 */
export async function whoami(context: CallContext, options?: AgentCallOptions): Promise<Identity> {
  const response = await context.send({
    endpoint: 'whoami',
    method: 'GET',
    path: '/v2/whoami',
    token: context.agentToken,
    kind: 'other',
    retry: 'idempotent',
    ...callFields(options, context.requestTimeoutMs),
  });
  return parseBody(response, identitySchema);
}

/**
 * What a failed identity check means. The seed: "A status other than 200 on the identity endpoint
 * indicates a wrong path or API address" — except the token's own refusals (401, and 403 with
 * `{code, message}`), the region mismatch, and the statuses of a service that is there but busy
 * or down (429, 502, 503, 504). No answer at all (network, timeout) is the service unavailable too.
 */
export type IdentityProblem = 'token-rejected' | 'region-mismatch' | 'not-the-service' | 'unavailable';

const UNAVAILABLE_STATUSES = new Set([429, 502, 503, 504]);

export function identityProblem(error: unknown): IdentityProblem {
  if (!isAgentApiError(error)) return 'unavailable';
  if (error.code === AgentApiErrorCode.RegionMismatch) return 'region-mismatch';
  if (error.code === AgentApiErrorCode.InvalidResponse) return 'not-the-service';
  if (error.status === 401 || error.status === 403) return 'token-rejected';
  if (error.status === undefined || UNAVAILABLE_STATUSES.has(error.status)) return 'unavailable';
  return 'not-the-service';
}
