import { z } from 'zod';
import { type AgentCallOptions, type CallContext, detailsOf, parseBody } from './call-context.js';
import { AgentApiErrorCode, EmptyAnswerError, isAgentApiError } from './errors.js';

/** The identity check: which account a token belongs to. */

export const identitySchema = z.looseObject({
  accountId: z.number().int(),
  accountName: z.string(),
});
export type Identity = z.infer<typeof identitySchema>;

/**
 * The answer as the spec types it: both members optional (its WhoAmI definition), so `{}` is a
 * valid answer, not an invalid one. A member of the wrong type still is.
 */
const identityAnswerSchema = z.looseObject({
  accountId: z.number().int().nullish(),
  accountName: z.string().nullish(),
});

/** The identity check, as the client's method. */
export function identityCalls({ send }: CallContext) {
  return {
    /**
     * GET /v2/whoami with the agent token. A bad token gets 403 `{code, message}` here (not 401),
     * which the transport maps to TokenRejected with the service's message. An answer that names no
     * account (`{}`, or without one of the two) is an EmptyAnswerError saying what it lacked: the
     * token and address worked, but the bot still does not know whose account this is.
     */
    async whoami(options?: AgentCallOptions): Promise<Identity> {
      const response = await send(
        { endpoint: 'whoami', method: 'GET', path: '/v2/whoami', retry: 'idempotent' },
        options,
      );
      const { accountId, accountName, ...others } = parseBody(response, identityAnswerSchema);
      if (accountId != null && accountName != null) return { ...others, accountId, accountName };
      // Neither member, but others: not an identity at all (another server's JSON), which the strict
      // schema reports as an invalid response naming the fields — the wrong-address case.
      if (accountId == null && accountName == null && Object.keys(others).length > 0) {
        return parseBody(response, identitySchema);
      }
      const lacking = [accountId == null && 'an account id', accountName == null && 'an account name']
        .filter((part): part is string => part !== false)
        .join(' or ');
      throw new EmptyAnswerError(
        `the identity check (/v2/whoami) came back without ${lacking}`,
        detailsOf(response),
      );
    },
  };
}

/**
 * What a failed identity check means. The seed: "A status other than 200 on the identity endpoint
 * indicates a wrong path or API address" — except the token's own refusals (401, and 403 with
 * `{code, message}`), the region mismatch, and the statuses of a service that is there but busy
 * or down (429, 502, 503, 504). No answer at all (network, timeout) is the service unavailable too,
 * and so is a 200 that names no account: the spec allows it, so it is not a wrong address, but
 * the account could not be confirmed (its sentence, describe-error's, says what came back).
 */
export type IdentityProblem = 'token-rejected' | 'region-mismatch' | 'not-the-service' | 'unavailable';

const UNAVAILABLE_STATUSES = new Set([429, 502, 503, 504]);

export function identityProblem(error: unknown): IdentityProblem {
  if (!isAgentApiError(error)) return 'unavailable';
  if (error.code === AgentApiErrorCode.RegionMismatch) return 'region-mismatch';
  if (error.code === AgentApiErrorCode.EmptyAnswer) return 'unavailable';
  if (error.code === AgentApiErrorCode.InvalidResponse) return 'not-the-service';
  if (error.status === 401 || error.status === 403) return 'token-rejected';
  if (error.status === undefined || UNAVAILABLE_STATUSES.has(error.status)) return 'unavailable';
  return 'not-the-service';
}
