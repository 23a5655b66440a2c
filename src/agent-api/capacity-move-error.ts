/** Why a capacity move was refused or failed. */
export const CapacityMoveReason = {
  UnknownAccount: 'unknown_account',
  AmbiguousAccount: 'ambiguous_account',
  SameAccount: 'same_account',
  InvalidAmount: 'invalid_amount',
  InsufficientCapacity: 'insufficient_capacity',
  /** Another move holds the lock. */
  Busy: 'busy',
  /** The donor was lowered but the recipient's PUT failed; see `restored`. */
  SecondUpdateFailed: 'second_update_failed',
  /** Both PUTs succeeded but the re-read listing does not show the expected values (or failed). */
  VerifyFailed: 'verify_failed',
} as const;
export type CapacityMoveReason = (typeof CapacityMoveReason)[keyof typeof CapacityMoveReason];

/** An account as a person can recognise it. */
export interface AccountLabel {
  accountId: number;
  accountName: string;
}

export interface CapacityMoveErrorDetails {
  /** For ambiguous_account: every account the name matched. */
  candidates?: AccountLabel[] | undefined;
  /** The name or id the person typed, for unknown/ambiguous accounts. */
  reference?: string | undefined;
  /** For second_update_failed: whether the donor was put back to its old value. */
  restored?: boolean | undefined;
  /** For second_update_failed when the restore failed too. */
  restoreError?: unknown;
  cause?: unknown;
}

/** A refused or failed capacity move. Refusals are raised before any write. */
export class CapacityMoveError extends Error {
  readonly reason: CapacityMoveReason;
  readonly candidates: AccountLabel[] | undefined;
  readonly reference: string | undefined;
  readonly restored: boolean | undefined;
  readonly restoreError: unknown;

  constructor(reason: CapacityMoveReason, message: string, details: CapacityMoveErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'CapacityMoveError';
    this.reason = reason;
    this.candidates = details.candidates;
    this.reference = details.reference;
    this.restored = details.restored;
    this.restoreError = details.restoreError;
  }
}

export function isCapacityMoveError(value: unknown): value is CapacityMoveError {
  return value instanceof CapacityMoveError;
}
