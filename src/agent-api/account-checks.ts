/**
 * What the vendor's published OpenAPI file asks of account-management requests, checked before
 * anything is sent (DESIGN, "Facts about the real service": checked against the vendor's OpenAPI
 * file). A request that breaks the spec is refused by the service with a 400 that names a schema
 * rule, not the admin's value: the bot says which value instead, and sends nothing.
 */

/** The largest int32: the spec types `retentionDays` and `maxDailyGB` as int32. */
export const INT32_MAX = 2_147_483_647;

/**
 * The `pattern` the vendor's spec gives `email` in its create/update request
 * (`TimeBasedAccountUpsertRequest.email` in logzio/public-api, account-management/swagger.json),
 * as written there but for a needless `\+` escape inside its first class. The service answers
 * 400 to anything else, so the bot checks exactly this: no stricter (it would refuse addresses
 * the service takes), no looser (the admin would get a 400 naming a schema rule, not the value).
 * What it implies: `+` only before the first dot of the local part, no other symbols there, and
 * a top-level domain of two or more letters.
 */
const SPEC_EMAIL_PATTERN =
  /^[_A-Za-z0-9-+]+(\.[_A-Za-z0-9-]+)*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(\.[A-Za-z]{2,})$/;

export function isEmailAddress(value: string): boolean {
  return SPEC_EMAIL_PATTERN.test(value);
}

/** A finite number the int32 type can hold (decimals of GB allowed: the range is what counts). */
export function fitsInt32(value: number): boolean {
  return Number.isFinite(value) && value >= -INT32_MAX - 1 && value <= INT32_MAX;
}

/** What the creation request carries that the checks look at. */
export interface NewAccountValues {
  email: string;
  retentionDays: number;
  maxDailyGB?: number | undefined;
}

/** One sentence per value the spec would refuse, naming it; empty when the request may be sent. */
export function newAccountProblems(account: NewAccountValues): string[] {
  const problems: string[] = [];
  if (!isEmailAddress(account.email)) problems.push(`“${account.email}” is not an email address`);
  if (!Number.isInteger(account.retentionDays) || account.retentionDays < 1) {
    problems.push(`the retention ${account.retentionDays} is not a whole number of days (1 or more)`);
  } else if (!fitsInt32(account.retentionDays)) {
    problems.push(
      `the retention ${account.retentionDays} days is more than the service accepts (${INT32_MAX})`,
    );
  }
  const gb = account.maxDailyGB;
  if (gb !== undefined && !(gb >= 0 && fitsInt32(gb))) {
    problems.push(`the max daily GB ${gb} is not between 0 and ${INT32_MAX}`);
  }
  return problems;
}
