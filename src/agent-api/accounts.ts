import { z } from 'zod';
import {
  type AgentCallOptions,
  type CallContext,
  parseBody,
  requireAccountToken,
  segment,
} from './call-context.js';
import { AgentApiError, AgentApiErrorCode } from './errors.js';

/**
 * Sub-account management: `<prefix>/account-management/time-based-accounts…`, main-account token.
 * Listing schemas are loose: the service returns fields the seed does not name (reservedDailyGB,
 * snapsearchRetentionDays, …) and a PUT must send them back unchanged, in the spelling they came in.
 */

/** Listing fields the vendor's spec marks as response-only: never sent back in a PUT. */
export const RESPONSE_ONLY_FIELDS = ['isOwner', 'isCapped', 'sharedGB', 'totalTimeBasedDailyGB'] as const;

/** Retention of a created account when the admin names none (the service requires one). */
export const DEFAULT_RETENTION_DAYS = 7;

/** A sharing account (`{accountId, accountName}`, both optional in the spec) or a bare id. */
const sharingAccountSchema = z.union([
  z.number().int(),
  z.looseObject({ accountId: z.number().int().nullish(), accountName: z.string().nullish() }),
]);

/** One account as listed: every member optional, as in the spec, so one row never sinks the listing. */
export const subAccountSchema = z.looseObject({
  accountId: z.number().int().nullish(),
  email: z.string().nullish(),
  accountName: z.string().nullish(),
  /** null: no daily cap — uncapped (`isFlexible: true`) or a Consumption plan's account. */
  maxDailyGB: z.number().nullish(),
  retentionDays: z.number().int().nullish(),
  searchable: z.boolean().nullish(),
  accessible: z.boolean().nullish(),
  docSizeSetting: z.boolean().nullish(),
  sharingObjectsAccounts: z.array(sharingAccountSchema).nullish(),
  utilizationSettings: z
    .looseObject({ frequencyMinutes: z.number().int().nullish(), utilizationEnabled: z.boolean().nullish() })
    .nullish(),
  /** The main account itself. */
  isOwner: z.boolean().nullish(),
  isFlexible: z.boolean().nullish(),
});
export type SubAccount = z.infer<typeof subAccountSchema>;

/** The PUT body: a full replacement built from the listed account (capacity-plan.ts's buildUpdateBody). */
export interface SubAccountUpdate {
  accountName: string;
  maxDailyGB: number;
  sharingObjectsAccounts: number[];
  [member: string]: unknown;
}

export interface NewSubAccount {
  /** Must belong to an admin user of the main account; must look like an address (the spec). */
  email: string;
  accountName: string;
  /** Required by the service (int32); the command fills in DEFAULT_RETENTION_DAYS. */
  retentionDays: number;
  /** The service's default is 0 (accepts no logs); int32 range. */
  maxDailyGB?: number | undefined;
  /** Required by the service: `[]` when none (the default). */
  sharingObjectsAccounts?: number[] | undefined;
}

/** The creation answer: every member optional, so any 2xx is a created account (a retry would make two). */
export const createdSubAccountSchema = z
  .looseObject({ accountId: z.number().int().nullish(), accountToken: z.string().nullish() })
  .transform(({ accountId, accountToken }) => ({
    accountId: accountId ?? undefined,
    accountToken: accountToken ?? undefined,
  }));
export type CreatedSubAccount = z.output<typeof createdSubAccountSchema>;

// The spec's rules, checked before sending: the service's 400 names a schema rule, the bot the value.

/** The largest int32: the spec types `retentionDays` and `maxDailyGB` as int32. */
export const INT32_MAX = 2_147_483_647;

/**
 * Whether `value` matches the spec's `email` pattern (`TimeBasedAccountUpsertRequest.email`, logzio/public-api
 * account-management/swagger.json) but for a needless `\+` escape: no stricter, no looser.
 */
export const isEmailAddress = (value: string): boolean =>
  /^[_A-Za-z0-9-+]+(\.[_A-Za-z0-9-]+)*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(\.[A-Za-z]{2,})$/.test(value);

/** A finite number the int32 type can hold (decimals of GB allowed: the range is what counts). */
export const fitsInt32 = (value: number): boolean =>
  Number.isFinite(value) && value >= -INT32_MAX - 1 && value <= INT32_MAX;

/** One sentence per value the spec would refuse, naming it; empty when the request may be sent. */
export function newAccountProblems(account: Pick<NewSubAccount, 'email' | 'retentionDays' | 'maxDailyGB'>) {
  const problems: string[] = [];
  if (!isEmailAddress(account.email)) problems.push(`“${account.email}” is not an email address`);
  if (!Number.isInteger(account.retentionDays) || account.retentionDays < 1) {
    problems.push(`the retention ${account.retentionDays} is not a whole number of days (1 or more)`);
  } else if (!fitsInt32(account.retentionDays)) {
    problems.push(
      `the retention ${account.retentionDays} days is more than the service accepts (${INT32_MAX})`,
    );
  }
  const gb = account.maxDailyGB;
  if (gb !== undefined && !(gb >= 0 && fitsInt32(gb))) {
    problems.push(`the max daily GB ${gb} is not between 0 and ${INT32_MAX}`);
  }
  return problems;
}

/**
 * The seed's PUT members (plus the id its path needs), in reading order. "Every parameter must be
 * included, otherwise omitted ones may be overwritten": a row lacking one is shown, never updated.
 */
const UPDATE_MEMBERS = [
  'accountId',
  'accountName',
  'maxDailyGB',
  'retentionDays',
  'searchable',
  'accessible',
  'docSizeSetting',
  'sharingObjectsAccounts',
  'utilizationSettings',
] as const;

type Present<T> = Exclude<T, null | undefined>;

type PlainMember = Exclude<(typeof UPDATE_MEMBERS)[number], 'maxDailyGB' | 'utilizationSettings'>;

/** A listed account with every member of UPDATE_MEMBERS present (`maxDailyGB` may be null). */
export type CompleteSubAccount = SubAccount & { [K in PlainMember]: Present<SubAccount[K]> } & {
  maxDailyGB: number | null;
  utilizationSettings: Present<SubAccount['utilizationSettings']> & { utilizationEnabled: boolean };
};

/**
 * The members the row lacks, as a person names them. Absent and null are missing, except
 * `maxDailyGB: null` ("no daily cap"); `frequencyMinutes` may be absent (often null, "not set").
 */
export function missingMembers(account: SubAccount): string[] {
  const missing: string[] = UPDATE_MEMBERS.filter((member) =>
    member === 'maxDailyGB' ? account.maxDailyGB === undefined : account[member] == null,
  );
  const utilization = account.utilizationSettings;
  if (utilization != null && utilization.utilizationEnabled == null) {
    missing.push('utilizationSettings.utilizationEnabled');
  }
  // The PUT takes sharing accounts as ids: one listed without its id cannot be sent back, and
  // leaving it out would stop that sharing (the update replaces every setting).
  if (account.sharingObjectsAccounts?.some((entry) => typeof entry !== 'number' && entry.accountId == null)) {
    missing.push('the id of a sharing account');
  }
  return missing;
}

/** Whether the row carries everything a full-replacement PUT must send back. */
export const isComplete = (account: SubAccount): account is CompleteSubAccount =>
  missingMembers(account).length === 0;

/** The sharing accounts of a complete row as plain ids, as the PUT takes them. */
export function sharingIds(account: CompleteSubAccount): number[] {
  return account.sharingObjectsAccounts.map((entry) => {
    const id = typeof entry === 'number' ? entry : entry.accountId;
    if (id == null) throw new Error('a sharing account without an id reached an update');
    return id;
  });
}

const basePath = (context: Pick<CallContext, 'accountPathPrefix'>) =>
  `${context.accountPathPrefix}/account-management/time-based-accounts`;

/** The listing's path: the seed's trailing slash, but not under a prefix (the spec's server 404s on it). */
export const listingPath = (context: Pick<CallContext, 'accountPathPrefix'>): string =>
  context.accountPathPrefix === '' ? `${basePath(context)}/` : basePath(context);

/** Sub-account management, as the client's methods: each needs the main-account token. */
export function accountCalls(context: CallContext) {
  const { send } = context;
  return {
    /** POST …/time-based-accounts, spec-checked first; not retried once it may have arrived. */
    async createSubAccount(account: NewSubAccount, options?: AgentCallOptions): Promise<CreatedSubAccount> {
      const token = requireAccountToken(context, 'createSubAccount');
      const problems = newAccountProblems(account);
      if (problems.length > 0) throw new AgentApiError(AgentApiErrorCode.InvalidInput, problems.join('; '));
      const body = { ...account, sharingObjectsAccounts: account.sharingObjectsAccounts ?? [] };
      const path = basePath(context);
      const response = await send(
        { endpoint: 'createSubAccount', method: 'POST', path, token, body, retry: 'unsent-only' },
        options,
      );
      if (response.text.trim() === '') return { accountId: undefined, accountToken: undefined };
      return parseBody(response, createdSubAccountSchema);
    },

    /** GET the listing (main account first, then its sub accounts). */
    async listSubAccounts(options?: AgentCallOptions): Promise<SubAccount[]> {
      const token = requireAccountToken(context, 'listSubAccounts');
      const path = listingPath(context);
      const response = await send(
        { endpoint: 'listSubAccounts', method: 'GET', path, token, retry: 'idempotent' },
        options,
      );
      return parseBody(response, z.array(subAccountSchema));
    },

    /** PUT …/time-based-accounts/<account_id>. Any 2xx is success (200 with or without a body, or 204). */
    async updateSubAccount(accountId: number, body: SubAccountUpdate, options?: AgentCallOptions) {
      const token = requireAccountToken(context, 'updateSubAccount');
      const path = `${basePath(context)}/${segment(accountId)}`;
      await send(
        { endpoint: 'updateSubAccount', method: 'PUT', path, token, body, retry: 'idempotent' },
        options,
      );
    },
  };
}
