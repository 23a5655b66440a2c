/**
 * Sub accounts: seeded records and the full-replacement rule. Seed, "Sub-account endpoints":
 * PUT replaces every parameter, and omitted ones may be overwritten with defaults — here they always
 * are, so a client that forgets a field visibly breaks that setting.
 */
import type { SubAccount } from './types.js';

/** Emails of the main account's admin users; only these may create sub accounts. */
export const SIM_ADMIN_EMAILS = ['admin@example.com', 'ops-lead@example.com'] as const;

/** The settings a PUT replaces, with the value each falls back to when omitted. */
export type AccountSettings = Omit<SubAccount, 'accountId' | 'email' | 'accountToken'>;

/** Defaults of every replaceable setting (maxDailyGB 0 is the seed's one stated constant). */
export function defaultSettings(accountName: string): AccountSettings {
  return {
    accountName,
    maxDailyGB: 0,
    retentionDays: 7,
    searchable: false,
    accessible: false,
    docSizeSetting: false,
    sharingObjectsAccounts: [],
    utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
    reservedDailyGB: null,
    isFlexible: false,
    softLimitGB: null,
    snapSearchRetentionDays: null,
  };
}

function seedAccount(
  accountId: number,
  settings: Partial<AccountSettings> & { accountName: string },
): SubAccount {
  return {
    accountId,
    email: null,
    accountToken: `sim-shipping-token-${accountId}`,
    ...defaultSettings(settings.accountName),
    ...settings,
  };
}

/** Non-default settings everywhere; "Staging"/"staging" differ only by case; "QA Team" has a space. */
function seededAccounts(): SubAccount[] {
  return [
    seedAccount(200001, {
      accountName: 'Production',
      maxDailyGB: 50,
      retentionDays: 30,
      searchable: true,
      accessible: true,
      docSizeSetting: true,
      sharingObjectsAccounts: [200002],
      utilizationSettings: { frequencyMinutes: 15, utilizationEnabled: true },
      reservedDailyGB: 40,
      isFlexible: true,
      softLimitGB: 45,
      snapSearchRetentionDays: 90,
    }),
    seedAccount(200002, {
      accountName: 'Staging',
      maxDailyGB: 20,
      retentionDays: 14,
      searchable: true,
      docSizeSetting: true,
      sharingObjectsAccounts: [200001, 200004],
      utilizationSettings: { frequencyMinutes: 60, utilizationEnabled: true },
      reservedDailyGB: 10,
      softLimitGB: 18,
      snapSearchRetentionDays: 30,
    }),
    seedAccount(200003, { accountName: 'staging', maxDailyGB: 5, retentionDays: 3, accessible: true }),
    seedAccount(200004, {
      accountName: 'QA Team',
      maxDailyGB: 8,
      retentionDays: 5,
      searchable: true,
      accessible: true,
      sharingObjectsAccounts: [200001],
      utilizationSettings: { frequencyMinutes: 30, utilizationEnabled: false },
      isFlexible: true,
    }),
  ];
}

/** The sub accounts of the main account. */
export class AccountStore {
  private accounts: SubAccount[] = seededAccounts();

  reset(): void {
    this.accounts = seededAccounts();
  }

  /** Deep copies of the full internal records. */
  all(): SubAccount[] {
    return this.accounts.map((a) => structuredClone(a));
  }

  get(accountId: number): SubAccount | undefined {
    return this.accounts.find((a) => a.accountId === accountId);
  }

  create(email: string, settings: AccountSettings): SubAccount {
    const accountId = Math.max(200000, ...this.accounts.map((a) => a.accountId)) + 1;
    const account: SubAccount = {
      accountId,
      email,
      accountToken: `sim-shipping-token-${accountId}`,
      ...settings,
    };
    this.accounts.push(account);
    return account;
  }

  /** Full replacement of every setting. */
  replace(accountId: number, settings: AccountSettings): void {
    const account = this.get(accountId);
    if (account) Object.assign(account, structuredClone(settings));
  }

  /** An account as the listing shows it: no token, email null, sharing accounts as objects. */
  listed(account: SubAccount) {
    const { accountToken: _token, email: _email, accountId, sharingObjectsAccounts, ...settings } = account;
    return {
      accountId,
      email: null,
      ...structuredClone(settings),
      sharingObjectsAccounts: sharingObjectsAccounts.map((id) => ({
        accountId: id,
        accountName: this.get(id)?.accountName ?? `account-${id}`,
      })),
    };
  }
}
