import { z } from 'zod';
import { type AgentCallOptions, type CallContext, callFields } from './call-context.js';
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
