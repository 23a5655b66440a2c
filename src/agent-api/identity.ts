import { z } from 'zod';
import { type AgentCallOptions, type CallContext, detailsOf, parseBody } from './call-context.js';
import { AgentApiErrorCode, EmptyAnswerError, isAgentApiError } from './errors.js';
import { RETRYABLE_STATUSES } from './retry-policy.js';

/** The identity check: which account a token belongs to. */

export const identitySchema = z.looseObject({ accountId: z.number().int(), accountName: z.string() });
export type Identity = z.infer<typeof identitySchema>;

/** The answer as the spec's WhoAmI types it: both members optional, so `{}` is valid. */
const identityAnswerSchema = z.looseObject({
  accountId: z.number().int().nullish(),
  accountName: z.string().nullish(),
});

export function identityCalls({ send }: CallContext) {
  return {
    /** GET /v2/whoami with the agent token; an answer naming no account is an EmptyAnswerError. */
    async whoami(options?: AgentCallOptions): Promise<Identity> {
      const response = await send(
        { endpoint: 'whoami', method: 'GET', path: '/v2/whoami', retry: 'idempotent' },
        options,
      );
      const { accountId, accountName, ...others } = parseBody(response, identityAnswerSchema);
      if (accountId != null && accountName != null) return { ...others, accountId, accountName };
      // Neither member, but others: another server's JSON, reported by the strict schema (wrong address).
      if (accountId == null && accountName == null && Object.keys(others).length > 0) {
        return parseBody(response, identitySchema);
      }
      const lacking = [accountId == null && 'an account id', accountName == null && 'an account name']
        .filter((part): part is string => part !== false)
        .join(' or ');
      const message = `the identity check (/v2/whoami) came back without ${lacking}`;
      throw new EmptyAnswerError(message, detailsOf(response));
    },
  };
}

/**
 * What a failed identity check means. The seed: "A status other than 200 on the identity endpoint
 * indicates a wrong path or API address" — except the token's refusals (401, 403), the region
 * mismatch, a busy or down service (429, 502–504, no answer) and a 200 naming no account.
 */
export type IdentityProblem = 'token-rejected' | 'region-mismatch' | 'not-the-service' | 'unavailable';

export function identityProblem(error: unknown): IdentityProblem {
  if (!isAgentApiError(error)) return 'unavailable';
  if (error.code === AgentApiErrorCode.RegionMismatch) return 'region-mismatch';
  if (error.code === AgentApiErrorCode.EmptyAnswer) return 'unavailable';
  if (error.code === AgentApiErrorCode.InvalidResponse) return 'not-the-service';
  if (error.status === 401 || error.status === 403) return 'token-rejected';
  if (error.status === undefined || RETRYABLE_STATUSES.includes(error.status)) return 'unavailable';
  return 'not-the-service';
}
