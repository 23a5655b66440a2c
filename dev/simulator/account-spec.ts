/**
 * What the vendor's published OpenAPI file (its public-api example spec) adds to the seed's
 * account endpoints, as a validating server applies it: strict about requests, loose in what
 * it answers. Written from that spec and DESIGN's notes on it, never from the bot's client.
 *
 * Requests: `email` must match the spec's `pattern` (its TimeBasedAccountUpsertRequest);
 * `retentionDays`, `maxDailyGB` (and the other integers) are int32; `reservedDailyGB`,
 * `softLimitGB` and `snapsearchRetentionDays` are numbers, so `null` fails — a client says
 * "not set" by leaving them out. `maxDailyGB: null` stays allowed on a
 * flexible account (uncapped) and on a Consumption plan's account (no daily cap).
 * Answers: every listing member is optional, `snapsearchRetentionDays` is spelled in lower case,
 * and every member of the creation answer is optional (`{}` is a created account).
 */
import type { SimulatorFaults } from './types.js';

export const INT32_MAX = 2_147_483_647;
const INT32_MIN = -INT32_MAX - 1;

/** The spec's spelling of the member the seed's listings spell `snapSearchRetentionDays`. */
export const SPEC_SNAP_SPELLING = 'snapsearchRetentionDays';
export const STORED_SNAP_SPELLING = 'snapSearchRetentionDays';

/** Members whose schema is a number (or integer) without `nullable`: null in a request fails. */
export const NOT_NULLABLE = ['reservedDailyGB', 'softLimitGB', STORED_SNAP_SPELLING] as const;

/** Members the spec types as int32 (top level). */
export const INT32_MEMBERS = ['retentionDays', 'maxDailyGB', STORED_SNAP_SPELLING] as const;

/**
 * `TimeBasedAccountUpsertRequest.email.pattern` of the vendor's spec (logzio/public-api,
 * account-management/swagger.json), as a validating server applies it.
 */
const EMAIL_PATTERN =
  '^[_A-Za-z0-9-\\+]+(\\.[_A-Za-z0-9-]+)*@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*(\\.[A-Za-z]{2,})$';
const EMAIL = new RegExp(EMAIL_PATTERN);

export const isSpecEmail = (value: unknown): boolean => typeof value === 'string' && EMAIL.test(value);

export const fitsInt32 = (value: unknown): boolean =>
  typeof value !== 'number' || (value >= INT32_MIN && value <= INT32_MAX);

/**
 * The spec's rules a request body breaks, as a validator's message; undefined when none.
 * The body's snap-retention member may come in either spelling (not both).
 */
export function specViolation(body: Record<string, unknown>): string | undefined {
  if (SPEC_SNAP_SPELLING in body && STORED_SNAP_SPELLING in body) {
    return `request body has both ${SPEC_SNAP_SPELLING} and ${STORED_SNAP_SPELLING}`;
  }
  const snap = (name: string) =>
    name === STORED_SNAP_SPELLING && SPEC_SNAP_SPELLING in body ? SPEC_SNAP_SPELLING : name;
  for (const name of NOT_NULLABLE) {
    const member = snap(name);
    if (body[member] === null) return `request.body.${member} should be number, not null`;
  }
  for (const name of INT32_MEMBERS) {
    const member = snap(name);
    if (!fitsInt32(body[member])) return `request.body.${member} should fit int32: ${String(body[member])}`;
  }
  if ('email' in body && !isSpecEmail(body.email)) {
    return `request.body.email should match pattern "${EMAIL_PATTERN}": ${JSON.stringify(body.email)}`;
  }
  return undefined;
}

/** The listing's switches (see SimulatorFaults). */
type ListingFaults = Pick<SimulatorFaults, 'listingOmits' | 'consumptionPlanAccount' | 'specSpelling'>;

/** A listed account as the switches shape it: a Consumption-plan account, the spec's spelling, omitted members. */
export function shapeListed(listed: Record<string, unknown>, faults: ListingFaults): Record<string, unknown> {
  let shaped: Record<string, unknown> = listed;
  if (faults.consumptionPlanAccount !== undefined && listed.accountId === faults.consumptionPlanAccount) {
    shaped = { ...shaped, maxDailyGB: null, isFlexible: false, isCapped: false };
  }
  if (faults.specSpelling && STORED_SNAP_SPELLING in shaped) {
    const { [STORED_SNAP_SPELLING]: value, ...rest } = shaped;
    shaped = { ...rest, [SPEC_SNAP_SPELLING]: value };
  }
  const omits = faults.listingOmits;
  if (omits !== undefined && listed.accountId === omits.accountId) {
    shaped = structuredClone(shaped);
    for (const member of omits.members) {
      const [outer, inner] = member.split('.') as [string, string | undefined];
      const nested = shaped[outer];
      if (inner === undefined) delete shaped[outer];
      else if (Array.isArray(nested)) {
        // A member of every entry: `sharingObjectsAccounts.accountId` (SharingAccount's members are optional too).
        for (const entry of nested) if (typeof entry === 'object' && entry !== null) delete entry[inner];
      } else if (typeof nested === 'object' && nested !== null)
        delete (nested as Record<string, unknown>)[inner];
    }
  }
  return shaped;
}
