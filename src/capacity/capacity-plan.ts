import {
  type CompleteSubAccount,
  fitsInt32,
  INT32_MAX,
  missingMembers,
  RESPONSE_ONLY_FIELDS,
  type SubAccount,
  type SubAccountUpdate,
  sharingIds,
} from '../agent-api/accounts.js';
import { CapacityMoveError, CapacityMoveReason } from './capacity-move-error.js';

/** The pure half of a capacity move: every refusal is known (and table-tested) before any write. */

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
  const byName = accounts.filter((account) => account.accountName?.toLowerCase() === lower);
  if (byName.length === 1) return byName[0] as SubAccount;
  if (byName.length === 0) {
    throw new CapacityMoveError(
      CapacityMoveReason.UnknownAccount,
      `no sub account is named or numbered "${wanted}"`,
      { reference: wanted },
    );
  }
  throw new CapacityMoveError(
    CapacityMoveReason.AmbiguousAccount,
    `"${wanted}" names ${byName.length} sub accounts`,
    {
      reference: wanted,
      candidates: byName.map(({ accountId, accountName }) => ({
        accountId: accountId ?? undefined,
        accountName: accountName ?? wanted,
      })),
    },
  );
}

/** Refuses amounts that are not a positive finite number of GB (after rounding), or past int32. */
export function validateAmount(gb: number): number {
  const rounded = Number.isFinite(gb) ? roundGb(gb) : Number.NaN;
  if (!(rounded > 0)) {
    throw new CapacityMoveError(
      CapacityMoveReason.InvalidAmount,
      `the amount must be a positive number of GB: ${gb}`,
    );
  }
  if (!fitsInt32(rounded)) {
    throw new CapacityMoveError(
      CapacityMoveReason.OutOfRange,
      `${gb} GB is more than the service accepts for a daily capacity (at most ${INT32_MAX})`,
    );
  }
  return rounded;
}

/** An account that can give or take capacity: a complete row of a capped sub account. */
export type CappedSubAccount = CompleteSubAccount & { maxDailyGB: number };

/** Refuses the main account, one without a daily cap, and a row missing members the PUT must send back. */
function movable(account: SubAccount): CappedSubAccount {
  const label = `${account.accountName ?? 'an account without a name'} (${account.accountId ?? 'no id'})`;
  const reference = account.accountName ?? String(account.accountId ?? '');
  const refuse = (reason: CapacityMoveReason, why: string) =>
    new CapacityMoveError(reason, `${label} ${why}`, { reference });
  const noCapacity = 'it has no capacity to give or take';
  if (account.isOwner === true) {
    throw refuse(
      CapacityMoveReason.MainAccount,
      'is the main account: its capacity is not moved by this command',
    );
  }
  if (account.maxDailyGB === null && account.isFlexible === true) {
    throw refuse(CapacityMoveReason.UncappedAccount, `is uncapped (flexible, no daily limit): ${noCapacity}`);
  }
  if (account.maxDailyGB === null) {
    throw refuse(CapacityMoveReason.NoDailyCap, `has no daily cap (consumption plan): ${noCapacity}`);
  }
  const missing = missingMembers(account);
  if (missing.length > 0) {
    throw new CapacityMoveError(
      CapacityMoveReason.IncompleteAccount,
      `the listing shows ${label} without ${missing.join(', ')}: an update replaces every setting, so the bot does not change an account it cannot see whole`,
      { reference, missing },
    );
  }
  return account as CappedSubAccount;
}

/** `gb` may have decimals; `from` (donor) and `to`: an account id or exact name, case ignored. */
export type CapacityMoveRequest = { gb: number; from: string; to: string };

/** Resolves both accounts and the new values, or throws the refusal. */
export function planMove(accounts: readonly SubAccount[], request: CapacityMoveRequest) {
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
  const recipientAfter = roundGb(recipient.maxDailyGB + gb);
  if (!fitsInt32(recipientAfter)) {
    throw new CapacityMoveError(
      CapacityMoveReason.OutOfRange,
      `${recipient.accountName} would have ${recipientAfter} GB, more than the service accepts (at most ${INT32_MAX})`,
    );
  }
  return { donor, recipient, gb, donorAfter, recipientAfter };
}

/** Both accounts of a move and their values after it. */
export type MovePlan = ReturnType<typeof planMove>;

/**
 * Leaves out null members at any depth (array elements stay): a listed null is "not set", which the
 * spec's number types refuse and its Go client omits. `maxDailyGB: null` never reaches here.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [member, inner] of Object.entries(value)) {
    if (inner !== null) kept[member] = withoutNulls(inner);
  }
  return kept;
}

/** The full-replacement PUT body, only maxDailyGB changed: listed fields but ids, tokens, response-only. */
export function buildUpdateBody(account: CompleteSubAccount, maxDailyGB: number): SubAccountUpdate {
  const { accountId: _id, email: _email, accountToken: _token, ...rest } = account as Listed;
  for (const field of RESPONSE_ONLY_FIELDS) delete (rest as Record<string, unknown>)[field];
  return {
    ...(withoutNulls(rest) as Record<string, unknown>),
    accountName: account.accountName,
    sharingObjectsAccounts: sharingIds(account),
    maxDailyGB: roundGb(maxDailyGB),
  };
}

/** A listed row may carry the account's token too: it is never sent back. */
type Listed = CompleteSubAccount & { accountToken?: unknown };
