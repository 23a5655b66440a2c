/** Sub-account endpoints (main-account token only) and the identity endpoint. */

import { SPEC_SNAP_SPELLING, STORED_SNAP_SPELLING, shapeListed, specViolation } from './account-spec.js';
import {
  type AccountSettings,
  defaultSettings,
  RESPONSE_ONLY_FIELDS,
  SIM_ADMIN_EMAILS,
  SIM_MAIN_ACCOUNT,
} from './accounts.js';
import { SIM_ACCOUNT_IDS } from './auth.js';
import type { Handler, SimContext } from './context.js';
import { errorResponse, invalidBody, isObject, jsonOf } from './http-io.js';
import type { SubAccount } from './types.js';

type Check = (value: unknown) => boolean;
const isInt = (v: unknown) => Number.isInteger(v);
const isNonNegative = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);

/** How each replaceable setting is checked; a wrong type is refused, an omission takes the default. */
const SETTING_CHECKS: Record<
  Exclude<keyof AccountSettings, 'accountName' | 'utilizationSettings' | 'undocumented'>,
  Check
> = {
  maxDailyGB: orNull(isNonNegative),
  retentionDays: (v) => isInt(v) && (v as number) >= 1,
  searchable: (v) => typeof v === 'boolean',
  accessible: (v) => typeof v === 'boolean',
  docSizeSetting: (v) => typeof v === 'boolean',
  // Requests take plain ids; the listing's {accountId, accountName} objects are refused.
  sharingObjectsAccounts: (v) => Array.isArray(v) && v.every(isInt),
  reservedDailyGB: orNull(isNonNegative),
  isFlexible: (v) => typeof v === 'boolean',
  softLimitGB: orNull(isNonNegative),
  snapSearchRetentionDays: orNull(isInt),
};

/** Body members that are not settings: identifiers the path or the creation carries. */
const NOT_SETTINGS = new Set(['accountName', 'utilizationSettings', 'accountId', 'email']);

/** Members every request must carry (the vendor's spec marks them required). */
const REQUIRED_ON = {
  create: ['accountName', 'email', 'sharingObjectsAccounts', 'retentionDays'],
  update: ['accountName', 'sharingObjectsAccounts'],
} as const;

/**
 * Settings from a request body: every omitted one falls back to its default; members no
 * document names are kept as they came. Response-only members and the token are refused, and so
 * is what the vendor's spec refuses (account-spec.ts). The snap-retention member is taken in the
 * spec's spelling or the seed listings' one. `consumption`: the account is on a Consumption plan,
 * where maxDailyGB may be null without the account being flexible.
 */
function parseSettings(
  ctx: SimContext,
  body: Record<string, unknown>,
  use: keyof typeof REQUIRED_ON,
  consumption = false,
): AccountSettings | string {
  const missing = REQUIRED_ON[use].filter((field) => body[field] === undefined);
  if (missing.length > 0) return `missing required field(s): ${missing.join(', ')}`;
  const violation = specViolation(body);
  if (violation) return violation;
  const readOnly = [...RESPONSE_ONLY_FIELDS, 'accountToken'].filter((field) => field in body);
  if (readOnly.length > 0) return `read-only field(s) in the request: ${readOnly.join(', ')}`;
  const { accountName } = body;
  if (typeof accountName !== 'string' || accountName.trim() === '')
    return 'accountName must be a non-empty string';
  const settings: Record<string, unknown> = defaultSettings(accountName);
  const undocumented: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(body)) {
    const field = member === SPEC_SNAP_SPELLING ? STORED_SNAP_SPELLING : member;
    if (NOT_SETTINGS.has(field)) continue;
    const check = SETTING_CHECKS[field as keyof typeof SETTING_CHECKS];
    if (!check) undocumented[field] = value;
    else if (!check(value)) return `${field} has an invalid value: ${JSON.stringify(value)}`;
    else settings[field] = value;
  }
  settings.undocumented = undocumented;
  const util = body.utilizationSettings;
  if (util !== undefined) {
    if (!isObject(util)) return 'utilizationSettings must be an object';
    const { frequencyMinutes = null, utilizationEnabled = false } = util;
    if (!orNull(isInt)(frequencyMinutes) || typeof utilizationEnabled !== 'boolean') {
      return 'utilizationSettings needs frequencyMinutes (integer or null) and utilizationEnabled (boolean)';
    }
    settings.utilizationSettings = { frequencyMinutes, utilizationEnabled };
  }
  const parsed = settings as AccountSettings;
  if (parsed.maxDailyGB === null && !parsed.isFlexible && !consumption)
    return 'maxDailyGB may be null (uncapped) only for a flexible account';
  const unknown = parsed.sharingObjectsAccounts.find((id) => !ctx.accounts.get(id));
  if (unknown !== undefined) return `sharingObjectsAccounts: unknown account ${unknown}`;
  return parsed;
}

/** The vendor's rule for the main account: retention is fixed, capacity only when flexible. */
function ownerRestriction(current: SubAccount, next: AccountSettings): string | undefined {
  if (!current.isOwner) return undefined;
  if (next.retentionDays !== current.retentionDays)
    return "The main account's retentionDays cannot be updated";
  if (next.maxDailyGB !== current.maxDailyGB && !current.isFlexible)
    return "The main account's maxDailyGB can be updated only when it is flexible";
  return undefined;
}

/** POST /account-management/time-based-accounts */
export const createAccount: Handler = (ctx, req) => {
  const body = jsonOf(req.body);
  if (!isObject(body)) return invalidBody('Request body must be a JSON object');
  const settings = parseSettings(ctx, body, 'create');
  if (typeof settings === 'string') return invalidBody(settings);
  if (typeof body.email !== 'string' || !(SIM_ADMIN_EMAILS as readonly string[]).includes(body.email)) {
    return invalidBody('email must belong to an admin user of the main account');
  }
  const account = ctx.accounts.create(body.email, settings);
  // The vendor's spec documents only accountId in this response, optional like every member; its
  // cookbook shows the token too.
  if (ctx.faults.createAnswersEmpty) return { status: 200, body: {} };
  if (ctx.faults.createWithoutToken) return { status: 200, body: { accountId: account.accountId } };
  return { status: 200, body: { accountId: account.accountId, accountToken: account.accountToken } };
};

/** GET /account-management/time-based-accounts/ (or, under the prefix, without the slash). */
export const listAccounts: Handler = (ctx) => {
  const limit = ctx.faults.failListingsAfter;
  ctx.counters.listings += 1;
  if (limit !== undefined && ctx.counters.listings > limit) {
    return errorResponse(500, 'INTERNAL_ERROR', 'Simulated failure listing accounts');
  }
  const listed = ctx.accounts.all().map((a) => shapeListed(ctx.accounts.listed(a), ctx.faults));
  return { status: 200, body: listed };
};

/** PUT /account-management/time-based-accounts/<account_id>: full replacement. */
export const putAccount: Handler = (ctx, req) => {
  const raw = req.params.accountId ?? '';
  const accountId = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  const current = ctx.accounts.get(accountId);
  if (!current) return errorResponse(404, 'ACCOUNT_NOT_FOUND', `Account ${raw} not found`);
  const received =
    req.body.kind === 'json' ? req.body.value : req.body.kind === 'invalid' ? req.body.text : undefined;
  ctx.putLog.push({ accountId, body: received, at: ctx.now() });
  if (ctx.faults.failPutForAccount === accountId) {
    return errorResponse(500, 'INTERNAL_ERROR', `Simulated failure updating account ${accountId}`);
  }
  const body = jsonOf(req.body);
  if (!isObject(body)) return invalidBody('Request body must be a JSON object');
  const settings = parseSettings(ctx, body, 'update', ctx.faults.consumptionPlanAccount === accountId);
  if (typeof settings === 'string') return invalidBody(settings);
  const restricted = ownerRestriction(current, settings);
  if (restricted) return invalidBody(restricted);
  ctx.accounts.replace(accountId, settings);
  if (ctx.faults.failPutAfterApplyForAccount === accountId) {
    return errorResponse(500, 'INTERNAL_ERROR', `Simulated failure after updating account ${accountId}`);
  }
  return { status: ctx.options.putStatus, text: '' };
};

/** GET /v2/whoami: the account of the token used. */
export const whoami: Handler = (ctx, req) => {
  if (ctx.faults.whoamiAnswersEmpty) return { status: 200, body: {} };
  if (req.token === 'main') return { status: 200, body: { ...SIM_MAIN_ACCOUNT } };
  if (ctx.options.agentAccount) return { status: 200, body: { ...ctx.options.agentAccount } };
  const account = ctx.accounts.get(SIM_ACCOUNT_IDS.agent);
  return {
    status: 200,
    body: { accountId: SIM_ACCOUNT_IDS.agent, accountName: account?.accountName ?? 'Production' },
  };
};
