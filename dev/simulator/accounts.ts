/**
 * Accounts: seeded records and the full-replacement rule. Seed, "Sub-account endpoints": PUT
 * replaces every parameter, and omitted ones may be overwritten with defaults — here they always
 * are, so a client that forgets a field visibly breaks that setting. Beyond the seed, as the
 * vendor's published spec has it: the listing includes the main account (`isOwner: true`), an
 * account may be uncapped (`maxDailyGB: null` with `isFlexible`), and listings carry fields the
 * seed does not name, some of them response-only.
 */
import { SIM_ACCOUNT_IDS, SIM_MAIN_ACCOUNT_NAME } from './auth.js';
import type { SubAccount } from './types.js';

/** Emails of the main account's admin users; only these may create sub accounts. */
export const SIM_ADMIN_EMAILS = ['admin@example.com', 'ops-lead@example.com'] as const;

/** Id and name of the main account (also what whoami answers for the main token). */
export const SIM_MAIN_ACCOUNT = {
  accountId: SIM_ACCOUNT_IDS.main,
  accountName: SIM_MAIN_ACCOUNT_NAME,
} as const;

/** The settings a PUT replaces, with the value each falls back to when omitted. */
export type AccountSettings = Omit<SubAccount, 'accountId' | 'email' | 'accountToken' | 'isOwner'>;

/** Fields the listing shows that a request may not carry (the vendor's spec: responses only). */
export const RESPONSE_ONLY_FIELDS = ['isOwner', 'isCapped', 'sharedGB', 'totalTimeBasedDailyGB'] as const;

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
    undocumented: {},
  };
}

function seedAccount(
  accountId: number,
  settings: Partial<AccountSettings> & { accountName: string },
  isOwner = false,
): SubAccount {
  return {
    accountId,
    email: null,
    accountToken: `sim-shipping-token-${accountId}`,
    isOwner,
    ...defaultSettings(settings.accountName),
    ...settings,
  };
}

/**
 * A main account and three sub accounts, one uncapped — what a small real organisation looks
 * like. Non-default settings everywhere, and an undocumented member, so a lossy PUT shows.
 */
function seededAccounts(): SubAccount[] {
  return [
    seedAccount(
      SIM_MAIN_ACCOUNT.accountId,
      {
        accountName: SIM_MAIN_ACCOUNT.accountName,
        maxDailyGB: 100,
        retentionDays: 30,
        searchable: true,
        accessible: true,
        utilizationSettings: { frequencyMinutes: 5, utilizationEnabled: true },
      },
      true,
    ),
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
      undocumented: { simUndocumented: { note: 'members the service adds must survive a PUT' } },
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
    seedAccount(200003, {
      accountName: 'Security',
      maxDailyGB: null,
      retentionDays: 90,
      searchable: true,
      accessible: true,
      isFlexible: true,
      reservedDailyGB: 5,
    }),
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

/** The main account and its sub accounts. */
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
      isOwner: false,
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

  /**
   * An account as the listing shows it: no token, email null, sharing accounts as objects, the
   * response-only fields computed, undocumented members at the top level.
   */
  listed(account: SubAccount) {
    const {
      accountToken: _token,
      email: _email,
      accountId,
      isOwner,
      sharingObjectsAccounts,
      undocumented,
      ...settings
    } = account;
    return {
      accountId,
      email: null,
      ...structuredClone(settings),
      sharingObjectsAccounts: sharingObjectsAccounts.map((id) => ({
        accountId: id,
        accountName: this.get(id)?.accountName ?? `account-${id}`,
      })),
      isOwner,
      isCapped: settings.maxDailyGB !== null,
      sharedGB: 0,
      totalTimeBasedDailyGB: isOwner ? this.totalCapped() : (settings.maxDailyGB ?? 0),
      ...structuredClone(undocumented),
    };
  }

  private totalCapped(): number {
    return this.accounts.reduce((sum, a) => sum + (a.maxDailyGB ?? 0), 0);
  }
}
