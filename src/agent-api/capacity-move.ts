import type { SubAccount } from './accounts.js';
import { type AccountLabel, CapacityMoveError, CapacityMoveReason } from './capacity-move-error.js';
import { buildUpdateBody, type MovePlan, planMove, roundGb, validateAmount } from './capacity-plan.js';
import type { AgentApi } from './client.js';

/**
 * Reallocates daily capacity between two sub accounts with the seed's two full-replacement PUTs:
 * lower the donor first (so the total never exceeds the plan), then raise the recipient, then
 * re-read the listing and report what it shows.
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
 * any write; a failed first PUT is rethrown as the client's AgentApiError (nothing else changed).
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
    await applyPlan(api, plan);
    return await verify(api, plan);
  } finally {
    await deps.lock?.release();
  }
}

async function applyPlan(api: AccountsApi, plan: MovePlan): Promise<void> {
  const { donor, recipient } = plan;
  await api.updateSubAccount(donor.accountId, buildUpdateBody(donor, plan.donorAfter));
  try {
    await api.updateSubAccount(recipient.accountId, buildUpdateBody(recipient, plan.recipientAfter));
  } catch (cause) {
    let restoreError: unknown;
    try {
      await api.updateSubAccount(donor.accountId, buildUpdateBody(donor, donor.maxDailyGB));
    } catch (error) {
      restoreError = error;
    }
    const restored = restoreError === undefined;
    const outcome = restored
      ? `${donor.accountName} was restored to ${donor.maxDailyGB} GB`
      : `restoring ${donor.accountName} to ${donor.maxDailyGB} GB failed too: it is left at ${plan.donorAfter} GB`;
    throw new CapacityMoveError(
      CapacityMoveReason.SecondUpdateFailed,
      `raising ${recipient.accountName} failed; ${outcome}`,
      { cause, restored, restoreError },
    );
  }
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
      {
        cause,
      },
    );
  }
  const donorNow = accounts.find((account) => account.accountId === plan.donor.accountId);
  const recipientNow = accounts.find((account) => account.accountId === plan.recipient.accountId);
  const matches = (account: SubAccount | undefined, expected: number) =>
    account !== undefined && roundGb(account.maxDailyGB) === expected;
  if (!matches(donorNow, plan.donorAfter) || !matches(recipientNow, plan.recipientAfter)) {
    throw new CapacityMoveError(
      CapacityMoveReason.VerifyFailed,
      `both updates were sent but the listing shows ${describe(donorNow)} and ${describe(recipientNow)}`,
    );
  }
  return {
    from: change(plan.donor, donorNow as SubAccount),
    to: change(plan.recipient, recipientNow as SubAccount),
  };
}

const describe = (account: SubAccount | undefined) =>
  account ? `${account.accountName} at ${account.maxDailyGB} GB` : 'an account missing';

const change = (before: SubAccount, after: SubAccount): AccountCapacityChange => ({
  accountId: after.accountId,
  accountName: after.accountName,
  before: before.maxDailyGB,
  after: after.maxDailyGB,
});
