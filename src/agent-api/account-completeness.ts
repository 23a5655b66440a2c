import type { SubAccount } from './accounts.js';

/**
 * Whether a listed account carries everything a full-replacement PUT must send back. The seed:
 * "every parameter must be included, otherwise omitted ones may be overwritten with defaults" —
 * so an account whose row lacks one of them is shown, but never updated.
 */

/** The seed's PUT members (plus the id the PUT's path needs), in the order a person reads them. */
export const UPDATE_MEMBERS = [
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

/** A listed account with every member of UPDATE_MEMBERS present (`maxDailyGB` may be null). */
export type CompleteSubAccount = SubAccount & {
  [K in Exclude<(typeof UPDATE_MEMBERS)[number], 'maxDailyGB' | 'utilizationSettings'>]: Present<
    SubAccount[K]
  >;
} & {
  maxDailyGB: number | null;
  utilizationSettings: Present<SubAccount['utilizationSettings']> & { utilizationEnabled: boolean };
};

/**
 * The members the row lacks, as a person would name them (`utilizationSettings.utilizationEnabled`
 * for the nested one). Absent and null count as missing, except `maxDailyGB: null`, which means
 * "no daily cap". `frequencyMinutes` may be absent: it is null ("not set") on many accounts.
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

export function isComplete(account: SubAccount): account is CompleteSubAccount {
  return missingMembers(account).length === 0;
}

/**
 * The sharing accounts of a complete row as the PUT takes them: plain ids (the listing shows
 * `{accountId, accountName}` objects). A complete row has an id in every entry (missingMembers).
 */
export function sharingIds(account: CompleteSubAccount): number[] {
  return account.sharingObjectsAccounts.map((entry) => {
    const id = typeof entry === 'number' ? entry : entry.accountId;
    if (id == null) throw new Error('a sharing account without an id reached an update');
    return id;
  });
}
