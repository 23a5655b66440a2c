import type { SubAccount } from '../agent-api/accounts.js';
import type { AgentApi } from '../agent-api/index.js';
import {
  type AccountCapacityState,
  type AccountLabel,
  CapacityMoveError,
  CapacityMoveReason,
  type CapacityMoveStep,
  type UnknownCapacity,
} from './capacity-move-error.js';
import { buildUpdateBody, type MovePlan, planMove, roundGb, validateAmount } from './capacity-plan.js';

/**
 * Reallocates daily capacity between two sub accounts with the seed's two full-replacement PUTs:
 * lower the donor first (so the total never exceeds the plan), then raise the recipient, then
 * re-read the listing and report what it shows (DESIGN, "Sub-account updates are full replacements").
 */

export interface CapacityMoveRequest {
  /** GB to move; decimals allowed. */
  gb: number;
  /** Donor: account id or exact name (case ignored). */
  from: string;
  /** Recipient: account id or exact name (case ignored). */
  to: string;
}

/** A lock shared by every replica (the store's), so two moves never interleave their PUTs. */
export interface CapacityMoveLock {
  /** True when taken; false when another move holds it. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

export interface AccountCapacityChange extends AccountLabel {
  before: number;
  after: number;
}

export interface CapacityMoveResult {
  from: AccountCapacityChange;
  to: AccountCapacityChange;
}

type AccountsApi = Pick<AgentApi, 'listSubAccounts' | 'updateSubAccount'>;

/**
 * Moves `request.gb` from one sub account to another. Refusals (CapacityMoveError) come before
 * any write. After a failed PUT the listing is re-read before anything is decided or said: the
 * service may have applied a PUT it answered with an error or a timeout.
 */
export async function moveCapacity(
  api: AccountsApi,
  request: CapacityMoveRequest,
  deps: { lock?: CapacityMoveLock | undefined } = {},
): Promise<CapacityMoveResult> {
  // Validating first means a bad amount never waits on (or takes) the lock.
  validateAmount(request.gb);
  if (deps.lock && !(await deps.lock.acquire())) {
    throw new CapacityMoveError(CapacityMoveReason.Busy, 'another capacity move is in progress');
  }
  try {
    const plan = planMove(await api.listSubAccounts(), request);
    const { donor, recipient } = plan;
    try {
      await api.updateSubAccount(donor.accountId, buildUpdateBody(donor, plan.donorAfter));
    } catch (cause) {
      return await recover(api, plan, 'lower-donor', cause);
    }
    try {
      await api.updateSubAccount(recipient.accountId, buildUpdateBody(recipient, plan.recipientAfter));
    } catch (cause) {
      return await recover(api, plan, 'raise-recipient', cause);
    }
    return await verify(api, plan);
  } finally {
    await deps.lock?.release();
  }
}

/** maxDailyGB of both accounts as the listing shows them now; undefined when the listing fails. */
interface Seen {
  donor: number | null | undefined;
  recipient: number | null | undefined;
}

async function readBoth(api: AccountsApi, plan: MovePlan): Promise<Seen | undefined> {
  let accounts: SubAccount[];
  try {
    accounts = await api.listSubAccounts();
  } catch {
    return undefined;
  }
  const now = (accountId: number) => {
    const value = accounts.find((account) => account.accountId === accountId)?.maxDailyGB;
    return typeof value === 'number' ? roundGb(value) : value;
  };
  return { donor: now(plan.donor.accountId), recipient: now(plan.recipient.accountId) };
}

/**
 * After a failed PUT: read, then decide. Both new values showing means the move went through
 * (the error came after the write). The donor is put back only when the recipient still shows its
 * old value, and what is reported is what the last read showed.
 */
async function recover(
  api: AccountsApi,
  plan: MovePlan,
  failedStep: CapacityMoveStep,
  cause: unknown,
): Promise<CapacityMoveResult> {
  const { donor, recipient } = plan;
  const seen = await readBoth(api, plan);
  if (!seen) throw stateUnknown(plan, failedStep, cause, { sent: false });
  if (seen.donor === plan.donorAfter && seen.recipient === plan.recipientAfter) {
    return { from: change(donor, plan.donorAfter), to: change(recipient, plan.recipientAfter) };
  }
  const mustRestore = seen.recipient === recipient.maxDailyGB && seen.donor !== donor.maxDailyGB;
  if (!mustRestore) throw updateFailed(plan, failedStep, cause, seen, {});
  let restoreError: unknown;
  try {
    await api.updateSubAccount(donor.accountId, buildUpdateBody(donor, donor.maxDailyGB));
  } catch (error) {
    restoreError = error;
  }
  const after = await readBoth(api, plan);
  if (!after) throw stateUnknown(plan, failedStep, cause, { sent: true, error: restoreError });
  const restored = after.donor === donor.maxDailyGB;
  throw updateFailed(plan, failedStep, cause, after, { restored, restoreError });
}

function states(plan: MovePlan, seen: Seen): AccountCapacityState[] {
  const state = (account: MovePlan['donor'], now: number | null | undefined) => ({
    accountId: account.accountId,
    accountName: account.accountName,
    before: account.maxDailyGB,
    now,
  });
  return [state(plan.donor, seen.donor), state(plan.recipient, seen.recipient)];
}

const STEP_TEXT: Record<CapacityMoveStep, (plan: MovePlan) => string> = {
  'lower-donor': (plan) => `lowering ${plan.donor.accountName} failed`,
  'raise-recipient': (plan) => `raising ${plan.recipient.accountName} failed`,
};

function updateFailed(
  plan: MovePlan,
  failedStep: CapacityMoveStep,
  cause: unknown,
  seen: Seen,
  restore: { restored?: boolean; restoreError?: unknown },
): CapacityMoveError {
  const shown = (value: number | null | undefined) => (value === undefined ? 'missing' : capacityText(value));
  return new CapacityMoveError(
    CapacityMoveReason.UpdateFailed,
    `${STEP_TEXT[failedStep](plan)}; the listing now shows ${plan.donor.accountName} at ${shown(seen.donor)} and ${plan.recipient.accountName} at ${shown(seen.recipient)}`,
    { cause, failedStep, states: states(plan, seen), ...restore },
  );
}

/**
 * The listing could not be read after a failed PUT: nothing more is sent, and each account is
 * described by the values it may have. `restore` says whether a PUT putting the donor back was
 * sent (and how it failed, if it did).
 */
function stateUnknown(
  plan: MovePlan,
  failedStep: CapacityMoveStep,
  cause: unknown,
  restore: { sent: boolean; error?: unknown },
): CapacityMoveError {
  const { donor, recipient } = plan;
  // The recipient's PUT is sent only after the donor's succeeded.
  const recipientPossible =
    failedStep === 'lower-donor' ? [recipient.maxDailyGB] : [recipient.maxDailyGB, plan.recipientAfter];
  const unknown: UnknownCapacity[] = [
    {
      accountId: donor.accountId,
      accountName: donor.accountName,
      possible: [donor.maxDailyGB, plan.donorAfter],
    },
    { accountId: recipient.accountId, accountName: recipient.accountName, possible: recipientPossible },
  ];
  return new CapacityMoveError(
    CapacityMoveReason.StateUnknown,
    `${STEP_TEXT[failedStep](plan)} and re-reading the accounts failed too`,
    { cause, failedStep, unknown, restoreSent: restore.sent, restoreError: restore.error },
  );
}

/** Re-reads the listing; the result is what the service now shows, not what was sent. */
async function verify(api: AccountsApi, plan: MovePlan): Promise<CapacityMoveResult> {
  let accounts: SubAccount[];
  try {
    accounts = await api.listSubAccounts();
  } catch (cause) {
    throw new CapacityMoveError(
      CapacityMoveReason.VerifyFailed,
      'both updates were sent but re-reading the accounts failed',
      { cause },
    );
  }
  const donorNow = accounts.find((account) => account.accountId === plan.donor.accountId);
  const recipientNow = accounts.find((account) => account.accountId === plan.recipient.accountId);
  const matches = (account: SubAccount | undefined, expected: number) =>
    account?.maxDailyGB !== undefined &&
    account.maxDailyGB !== null &&
    roundGb(account.maxDailyGB) === expected;
  if (!matches(donorNow, plan.donorAfter) || !matches(recipientNow, plan.recipientAfter)) {
    throw new CapacityMoveError(
      CapacityMoveReason.VerifyFailed,
      `both updates were sent but the listing shows ${describe(donorNow)} and ${describe(recipientNow)}`,
    );
  }
  return { from: change(plan.donor, plan.donorAfter), to: change(plan.recipient, plan.recipientAfter) };
}

const describe = (account: SubAccount | undefined) =>
  account
    ? `${account.accountName ?? `account ${account.accountId}`} at ${capacityText(account.maxDailyGB)}`
    : 'an account missing';

const capacityText = (value: number | null | undefined) =>
  value === undefined ? 'no value' : value === null ? 'no daily cap' : `${value} GB`;

const change = (before: MovePlan['donor'], after: number): AccountCapacityChange => ({
  accountId: before.accountId,
  accountName: before.accountName,
  before: before.maxDailyGB,
  after,
});
