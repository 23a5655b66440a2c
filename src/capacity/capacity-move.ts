import type { SubAccount } from '../agent-api/accounts.js';
import type { AgentApi } from '../agent-api/index.js';
import {
  type AccountLabel,
  CapacityMoveError,
  CapacityMoveReason,
  type CapacityMoveStep,
  type UnknownCapacity,
} from './capacity-move-error.js';
import type { CapacityMoveRequest, MovePlan } from './capacity-plan.js';
import { buildUpdateBody, planMove, roundGb, validateAmount } from './capacity-plan.js';

/** Two full-replacement PUTs (DESIGN): the donor lowered first, so the total never exceeds the plan. */

/** A lock shared by every replica (the store's), so two moves never interleave their PUTs. */
export interface CapacityMoveLock {
  /** True when taken; false when another move holds it. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

/** The donor's (`from`) and the recipient's (`to`) capacity, as the re-read listing shows it. */
export type CapacityMoveResult = Record<'from' | 'to', AccountLabel & { before: number; after: number }>;

type AccountsApi = Pick<AgentApi, 'listSubAccounts' | 'updateSubAccount'>;

/** Moves `request.gb`; after a failed PUT the listing is re-read first: the service may have applied it. */
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

/** Both accounts' rows as the listing shows them now (undefined: missing from it). */
async function reread(api: AccountsApi, plan: MovePlan) {
  const accounts = await api.listSubAccounts();
  const row = (accountId: number) => accounts.find((account) => account.accountId === accountId);
  return { donor: row(plan.donor.accountId), recipient: row(plan.recipient.accountId) };
}

/** A row's maxDailyGB with float noise rounded away (null: no daily cap; undefined: no row). */
const gbOf = (row: SubAccount | undefined) =>
  typeof row?.maxDailyGB === 'number' ? roundGb(row.maxDailyGB) : row?.maxDailyGB;

/** maxDailyGB of both accounts as the listing shows them now; undefined when the listing fails. */
type Seen = Record<'donor' | 'recipient', number | null | undefined>;

async function readBoth(api: AccountsApi, plan: MovePlan): Promise<Seen | undefined> {
  const rows = await reread(api, plan).catch(() => undefined);
  return rows && { donor: gbOf(rows.donor), recipient: gbOf(rows.recipient) };
}

/** After a failed PUT: the donor is put back only when the recipient still shows its old value. */
async function recover(
  api: AccountsApi,
  plan: MovePlan,
  failedStep: CapacityMoveStep,
  cause: unknown,
): Promise<CapacityMoveResult> {
  const { donor, recipient } = plan;
  const seen = await readBoth(api, plan);
  if (!seen) throw stateUnknown(plan, failedStep, cause, { sent: false });
  if (seen.donor === plan.donorAfter && seen.recipient === plan.recipientAfter) return moved(plan);
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
    {
      cause,
      failedStep,
      states: [
        { ...before(plan.donor), now: seen.donor },
        { ...before(plan.recipient), now: seen.recipient },
      ],
      ...restore,
    },
  );
}

/** The listing unread after a failed PUT: nothing more is sent; each account gets its possible values. */
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
    { ...labelOf(donor), possible: [donor.maxDailyGB, plan.donorAfter] },
    { ...labelOf(recipient), possible: recipientPossible },
  ];
  return new CapacityMoveError(
    CapacityMoveReason.StateUnknown,
    `${STEP_TEXT[failedStep](plan)} and re-reading the accounts failed too`,
    { cause, failedStep, unknown, restoreSent: restore.sent, restoreError: restore.error },
  );
}

/** Re-reads the listing; the result is what the service now shows, not what was sent. */
async function verify(api: AccountsApi, plan: MovePlan): Promise<CapacityMoveResult> {
  const { donor, recipient } = await reread(api, plan).catch((cause: unknown) => {
    throw new CapacityMoveError(
      CapacityMoveReason.VerifyFailed,
      'both updates were sent but re-reading the accounts failed',
      { cause },
    );
  });
  if (gbOf(donor) !== plan.donorAfter || gbOf(recipient) !== plan.recipientAfter) {
    throw new CapacityMoveError(
      CapacityMoveReason.VerifyFailed,
      `both updates were sent but the listing shows ${describe(donor)} and ${describe(recipient)}`,
    );
  }
  return moved(plan);
}

const describe = (account: SubAccount | undefined) =>
  account
    ? `${account.accountName ?? `account ${account.accountId}`} at ${capacityText(account.maxDailyGB)}`
    : 'an account missing';

const capacityText = (value: number | null | undefined) =>
  value === undefined ? 'no value' : value === null ? 'no daily cap' : `${value} GB`;

type Account = MovePlan['donor'];
const labelOf = ({ accountId, accountName }: Account): AccountLabel => ({ accountId, accountName });
const before = (account: Account) => ({ ...labelOf(account), before: account.maxDailyGB });

/** The result of a move both PUTs of which the listing shows. */
const moved = ({ donor, recipient, donorAfter, recipientAfter }: MovePlan): CapacityMoveResult => ({
  from: { ...before(donor), after: donorAfter },
  to: { ...before(recipient), after: recipientAfter },
});
