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
 * isFlexible, softLimitGB, …) and a PUT must send them back unchanged. The listing includes the
 * main account itself (`isOwner: true`), and an uncapped account has `maxDailyGB: null`.
 */

/** Listing fields the vendor's spec marks as response-only: never sent back in a PUT. */
export const RESPONSE_ONLY_FIELDS = ['isOwner', 'isCapped', 'sharedGB', 'totalTimeBasedDailyGB'] as const;

/** Retention of a created account when the admin names none (the service requires one). */
export const DEFAULT_RETENTION_DAYS = 7;

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
  /** null: uncapped (a flexible account without a cap). */
  maxDailyGB: z.number().nullable(),
  retentionDays: z.number().int(),
  searchable: z.boolean(),
  accessible: z.boolean(),
  docSizeSetting: z.boolean(),
  sharingObjectsAccounts: z.array(sharingAccountSchema),
  utilizationSettings: z.looseObject({
    frequencyMinutes: z.number().int().nullable(),
    utilizationEnabled: z.boolean(),
  }),
  /** The main account itself. */
  isOwner: z.boolean().optional(),
  isFlexible: z.boolean().optional(),
});
export type SubAccount = z.infer<typeof subAccountSchema>;

const subAccountListSchema = z.array(subAccountSchema);

/** The PUT body: a full replacement, sharing accounts as plain ids, unknown fields kept. */
export const subAccountUpdateSchema = subAccountSchema
  .omit({ accountId: true, email: true, isOwner: true })
  .extend({ sharingObjectsAccounts: z.array(z.number().int()) });
export type SubAccountUpdate = z.infer<typeof subAccountUpdateSchema>;

export interface NewSubAccount {
  /** Must belong to an admin user of the main account. */
  email: string;
  accountName: string;
  /** Required by the service; the command fills in DEFAULT_RETENTION_DAYS. */
  retentionDays: number;
  /** The service's default is 0 (accepts no logs). */
  maxDailyGB?: number | undefined;
  /** Required by the service: `[]` when none (the default). */
  sharingObjectsAccounts?: number[] | undefined;
}

/**
 * The creation answer. The vendor's spec lists only `accountId` (its cookbook shows the token
 * too): an answer without a token is still a created account.
 */
export const createdSubAccountSchema = z.looseObject({
  accountId: z.number().int(),
  accountToken: z.string().optional(),
});
export type CreatedSubAccount = z.infer<typeof createdSubAccountSchema>;

const basePath = (context: CallContext) =>
  `${context.accountPathPrefix}/account-management/time-based-accounts`;

/** POST …/time-based-accounts. Not retried when it may have arrived: a retry could create two accounts. */
export async function createSubAccount(
  context: CallContext,
  account: NewSubAccount,
  options?: AgentCallOptions,
): Promise<CreatedSubAccount> {
  const token = requireAccountToken(context, 'createSubAccount');
  const body = { ...account, sharingObjectsAccounts: account.sharingObjectsAccounts ?? [] };
  const response = await context.send({
    endpoint: 'createSubAccount',
    method: 'POST',
    path: basePath(context),
    token,
    body,
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
