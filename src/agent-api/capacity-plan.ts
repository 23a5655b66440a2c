import { RESPONSE_ONLY_FIELDS, type SubAccount, type SubAccountUpdate } from './accounts.js';
import { CapacityMoveError, CapacityMoveReason } from './capacity-move-error.js';

/**
 * The pure half of a capacity move: which accounts, which new values, which PUT bodies.
 * No I/O, so every refusal can be table-tested and is known before any write.
 */

/** GB values are decimals: round away float noise (0.1 + 0.2) to 6 places. */
export const roundGb = (value: number): number => Math.round(value * 1e6) / 1e6;

/** Finds an account by numeric id, else by exact name ignoring case (and surrounding spaces). */
export function resolveAccount(accounts: readonly SubAccount[], reference: string): SubAccount {
  const wanted = reference.trim();
  if (/^\d+$/.test(wanted)) {
    const byId = accounts.find((account) => account.accountId === Number(wanted));
    if (byId) return byId;
  }
  const lower = wanted.toLowerCase();
  const byName = accounts.filter((account) => account.accountName.toLowerCase() === lower);
  if (byName.length === 1) return byName[0] as SubAccount;
  if (byName.length === 0) {
    throw new CapacityMoveError(
      CapacityMoveReason.UnknownAccount,
      `no sub account is named or numbered "${wanted}"`,
      {
        reference: wanted,
      },
    );
  }
  throw new CapacityMoveError(
    CapacityMoveReason.AmbiguousAccount,
    `"${wanted}" names ${byName.length} sub accounts`,
    {
      reference: wanted,
      candidates: byName.map(({ accountId, accountName }) => ({ accountId, accountName })),
    },
  );
}

/** Refuses amounts that are not a positive finite number of GB (after rounding). */
export function validateAmount(gb: number): number {
  const rounded = Number.isFinite(gb) ? roundGb(gb) : Number.NaN;
  if (!(rounded > 0)) {
    throw new CapacityMoveError(
      CapacityMoveReason.InvalidAmount,
      `the amount must be a positive number of GB: ${gb}`,
    );
  }
  return rounded;
}

/** An account that can give or take capacity: a capped sub account. */
export type CappedSubAccount = SubAccount & { maxDailyGB: number };

/** Refuses the main account and uncapped accounts, with the reason a person reads. */
function movable(account: SubAccount): CappedSubAccount {
  const label = `${account.accountName} (${account.accountId})`;
  if (account.isOwner === true) {
    throw new CapacityMoveError(
      CapacityMoveReason.MainAccount,
      `${label} is the main account: its capacity is not moved by this command`,
      { reference: account.accountName },
    );
  }
  if (account.maxDailyGB === null) {
    throw new CapacityMoveError(
      CapacityMoveReason.UncappedAccount,
      `${label} is uncapped (flexible, no daily limit): it has no capacity to give or take`,
      { reference: account.accountName },
    );
  }
  return account as CappedSubAccount;
}

export interface MovePlan {
  donor: CappedSubAccount;
  recipient: CappedSubAccount;
  gb: number;
  donorAfter: number;
  recipientAfter: number;
}

/** Resolves both accounts and the new values, or throws the refusal. */
export function planMove(
  accounts: readonly SubAccount[],
  request: { gb: number; from: string; to: string },
): MovePlan {
  const gb = validateAmount(request.gb);
  const donorFound = resolveAccount(accounts, request.from);
  const recipientFound = resolveAccount(accounts, request.to);
  if (donorFound.accountId === recipientFound.accountId) {
    throw new CapacityMoveError(
      CapacityMoveReason.SameAccount,
      `"${request.from}" and "${request.to}" are the same account`,
    );
  }
  const donor = movable(donorFound);
  const recipient = movable(recipientFound);
  const donorAfter = roundGb(donor.maxDailyGB - gb);
  if (donorAfter < 0) {
    throw new CapacityMoveError(
      CapacityMoveReason.InsufficientCapacity,
      `${donor.accountName} has ${donor.maxDailyGB} GB, fewer than the ${gb} GB to move`,
    );
  }
  return { donor, recipient, gb, donorAfter, recipientAfter: roundGb(recipient.maxDailyGB + gb) };
}

/**
 * The full-replacement PUT body for `account` with only maxDailyGB changed: every listed field
 * but accountId, email, accountToken and the response-only ones goes back (unknown ones too),
 * and sharingObjectsAccounts as plain ids because the listing shows objects while the PUT takes ids.
 */
export function buildUpdateBody(account: SubAccount, maxDailyGB: number): SubAccountUpdate {
  const {
    accountId: _id,
    email: _email,
    accountToken: _token,
    ...rest
  } = account as SubAccount & {
    accountToken?: unknown;
  };
  for (const field of RESPONSE_ONLY_FIELDS) delete (rest as Record<string, unknown>)[field];
  const sharingObjectsAccounts = account.sharingObjectsAccounts.map((entry) =>
    typeof entry === 'number' ? entry : entry.accountId,
  );
  return { ...rest, sharingObjectsAccounts, maxDailyGB: roundGb(maxDailyGB) };
}
