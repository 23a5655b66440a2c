/** Why a capacity move was refused or failed. */
export const CapacityMoveReason = {
  UnknownAccount: 'unknown_account',
  AmbiguousAccount: 'ambiguous_account',
  SameAccount: 'same_account',
  InvalidAmount: 'invalid_amount',
  InsufficientCapacity: 'insufficient_capacity',
  /** The main account (`isOwner`) takes no part in a move: its PUT is restricted. */
  MainAccount: 'main_account',
  /** An uncapped flexible account (`maxDailyGB: null`) has no capacity to give or take. */
  UncappedAccount: 'uncapped_account',
  /** A Consumption plan's account without a daily cap (`maxDailyGB: null`, not flexible). */
  NoDailyCap: 'no_daily_cap',
  /** The listing's row lacks members a full-replacement PUT must send back. */
  IncompleteAccount: 'incomplete_account',
  /** A new value past what the service accepts (int32). */
  OutOfRange: 'out_of_range',
  /** Another move holds the lock. */
  Busy: 'busy',
  /** A PUT failed; the listing was re-read: `states` is what it showed (and `restored` what was done). */
  UpdateFailed: 'update_failed',
  /** A PUT failed and re-reading the listing failed too: `unknown` says which values may be what. */
  StateUnknown: 'state_unknown',
  /** Both PUTs succeeded but the re-read listing does not show the expected values (or failed). */
  VerifyFailed: 'verify_failed',
} as const;
export type CapacityMoveReason = (typeof CapacityMoveReason)[keyof typeof CapacityMoveReason];

/** An account as a person can recognise it. */
export type AccountLabel = { accountId: number; accountName: string };

/** One account's capacity as the move found it and as the re-read listing showed it afterwards. */
export interface AccountCapacityState extends AccountLabel {
  before: number;
  /** null: the listing shows it uncapped; undefined: it is missing from the listing. */
  now: number | null | undefined;
}

/** An account whose current value could not be read: it is one of `possible`. */
export type UnknownCapacity = AccountLabel & { possible: number[] };

/** The step of a move whose PUT failed. */
export type CapacityMoveStep = 'lower-donor' | 'raise-recipient';

/** What a CapacityMoveError carries besides its reason, and its cause. */
type MoveErrorDetails = Partial<Omit<CapacityMoveError, keyof Error | 'reason'>> & { cause?: unknown };

/** A refused or failed capacity move. Refusals are raised before any write. */
export class CapacityMoveError extends Error {
  readonly reason: CapacityMoveReason;
  /** For ambiguous_account: every account the name matched (a listing row may lack its id). */
  readonly candidates: (Pick<AccountLabel, 'accountName'> & { accountId?: number | undefined })[] | undefined;
  /** The name or id the person typed, for unknown/ambiguous accounts. */
  readonly reference: string | undefined;
  /** For update_failed and state_unknown: the step whose PUT failed first. */
  readonly failedStep: CapacityMoveStep | undefined;
  /** For update_failed: donor and recipient, before the move and as last read. */
  readonly states: AccountCapacityState[] | undefined;
  /** For update_failed: the donor was put back and the listing shows it back. */
  readonly restored: boolean | undefined;
  /** For update_failed and state_unknown when a restore was sent and failed. */
  readonly restoreError: unknown;
  /** For state_unknown: what each account may now be. */
  readonly unknown: UnknownCapacity[] | undefined;
  /** For state_unknown: a PUT putting the donor back was sent before the listing failed. */
  readonly restoreSent: boolean | undefined;
  /** For incomplete_account: the members the listing's row lacks. */
  readonly missing: string[] | undefined;

  constructor(reason: CapacityMoveReason, message: string, { cause, ...rest }: MoveErrorDetails = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'CapacityMoveError';
    this.reason = reason;
    Object.assign(this, rest);
  }
}

export const isCapacityMoveError = (value: unknown): value is CapacityMoveError =>
  value instanceof CapacityMoveError;
