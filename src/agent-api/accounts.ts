import { z } from 'zod';
import {
  type AgentCallOptions,
  type CallContext,
  callFields,
  requireAccountToken,
  segment,
} from './call-context.js';
import { parseBody } from './parse-body.js';

/**
 * Sub-account management: `<prefix>/account-management/time-based-accounts…`, main-account token.
 * Listing schemas are loose: the service returns fields the seed does not name (reservedDailyGB,
 * isFlexible, softLimitGB, …) and a PUT must send them back unchanged.
 */

/** A sharing account as the listing shows it (`{accountId, accountName}`), or a bare id. */
const sharingAccountSchema = z.union([
  z.number().int(),
  z.looseObject({ accountId: z.number().int(), accountName: z.string().optional() }),
]);

/**
 * One sub account as listed. Every field the seed's PUT needs is required here, so a listing
 * that lacks one fails before any full-replacement PUT could reset it to a default.
 */
export const subAccountSchema = z.looseObject({
  accountId: z.number().int(),
  email: z.string().nullish(),
  accountName: z.string(),
  maxDailyGB: z.number(),
  retentionDays: z.number().int(),
  searchable: z.boolean(),
  accessible: z.boolean(),
  docSizeSetting: z.boolean(),
  sharingObjectsAccounts: z.array(sharingAccountSchema),
  utilizationSettings: z.looseObject({
    frequencyMinutes: z.number().int().nullable(),
    utilizationEnabled: z.boolean(),
  }),
});
export type SubAccount = z.infer<typeof subAccountSchema>;

const subAccountListSchema = z.array(subAccountSchema);

/** The PUT body: a full replacement, sharing accounts as plain ids, unknown fields kept. */
export const subAccountUpdateSchema = subAccountSchema
  .omit({ accountId: true, email: true })
  .extend({ sharingObjectsAccounts: z.array(z.number().int()) });
export type SubAccountUpdate = z.infer<typeof subAccountUpdateSchema>;

export interface NewSubAccount {
  /** Must belong to an admin user of the main account. */
  email: string;
  accountName: string;
  retentionDays?: number | undefined;
  /** The service's default is 0 (accepts no logs). */
  maxDailyGB?: number | undefined;
}

export const createdSubAccountSchema = z.looseObject({
  accountId: z.number().int(),
  accountToken: z.string(),
});
export type CreatedSubAccount = z.infer<typeof createdSubAccountSchema>;

const basePath = (context: CallContext) =>
  `${context.accountPathPrefix}/account-management/time-based-accounts`;

/** POST …/time-based-accounts. Not retried when it may have arrived: a retry could create two accounts. */
export async function createSubAccount(
  context: CallContext,
  account: NewSubAccount,
  options?: AgentCallOptions,
): Promise<{ accountId: number; accountToken: string }> {
  const token = requireAccountToken(context, 'createSubAccount');
  const response = await context.send({
    endpoint: 'createSubAccount',
    method: 'POST',
    path: basePath(context),
    token,
    body: account,
    kind: 'other',
    retry: 'unsent-only',
    ...callFields(options, context.requestTimeoutMs),
  });
  const created = parseBody(response, createdSubAccountSchema);
  return { accountId: created.accountId, accountToken: created.accountToken };
}

/** GET …/time-based-accounts/ (the seed's trailing slash). */
export async function listSubAccounts(
  context: CallContext,
  options?: AgentCallOptions,
): Promise<SubAccount[]> {
  const token = requireAccountToken(context, 'listSubAccounts');
  const response = await context.send({
    endpoint: 'listSubAccounts',
    method: 'GET',
    path: `${basePath(context)}/`,
    token,
    kind: 'other',
    retry: 'idempotent',
    ...callFields(options, context.requestTimeoutMs),
  });
  return parseBody(response, subAccountListSchema);
}

/** PUT …/time-based-accounts/<account_id>. Any 2xx is success (200 with or without a body, or 204). */
export async function updateSubAccount(
  context: CallContext,
  accountId: number,
  body: SubAccountUpdate,
  options?: AgentCallOptions,
): Promise<void> {
  const token = requireAccountToken(context, 'updateSubAccount');
  await context.send({
    endpoint: 'updateSubAccount',
    method: 'PUT',
    path: `${basePath(context)}/${segment(accountId)}`,
    token,
    body,
    kind: 'other',
    retry: 'idempotent',
    ...callFields(options, context.requestTimeoutMs),
  });
}
