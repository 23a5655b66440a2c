/** Sub-account endpoints (main-account token only) and the identity endpoint. */

import { type AccountSettings, defaultSettings, SIM_ADMIN_EMAILS } from './accounts.js';
import { SIM_ACCOUNT_IDS, SIM_MAIN_ACCOUNT_NAME } from './auth.js';
import type { Handler, SimContext } from './context.js';
import { errorResponse, invalidBody, isObject, jsonOf } from './http-io.js';

type Check = (value: unknown) => boolean;
const isInt = (v: unknown) => Number.isInteger(v);
const isNonNegative = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);

/** How each replaceable setting is checked; a wrong type is refused, an omission takes the default. */
const SETTING_CHECKS: Record<Exclude<keyof AccountSettings, 'accountName' | 'utilizationSettings'>, Check> = {
  maxDailyGB: isNonNegative,
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

/** Settings from a request body: every omitted one falls back to its default. */
function parseSettings(ctx: SimContext, body: Record<string, unknown>): AccountSettings | string {
  const { accountName } = body;
  if (typeof accountName !== 'string' || accountName.trim() === '')
    return 'accountName must be a non-empty string';
  const settings: Record<string, unknown> = defaultSettings(accountName);
  for (const [field, check] of Object.entries(SETTING_CHECKS)) {
    const value = body[field];
    if (value === undefined) continue;
    if (!check(value)) return `${field} has an invalid value: ${JSON.stringify(value)}`;
    settings[field] = value;
  }
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
  const unknown = parsed.sharingObjectsAccounts.find((id) => !ctx.accounts.get(id));
  if (unknown !== undefined) return `sharingObjectsAccounts: unknown account ${unknown}`;
  return parsed;
}

/** POST /account-management/time-based-accounts */
export const createAccount: Handler = (ctx, req) => {
  const body = jsonOf(req.body);
  if (!isObject(body)) return invalidBody('Request body must be a JSON object');
  if (typeof body.email !== 'string' || !(SIM_ADMIN_EMAILS as readonly string[]).includes(body.email)) {
    return invalidBody('email must belong to an admin user of the main account');
  }
  const settings = parseSettings(ctx, body);
  if (typeof settings === 'string') return invalidBody(settings);
  const account = ctx.accounts.create(body.email, settings);
  return { status: 200, body: { accountId: account.accountId, accountToken: account.accountToken } };
};

/** GET /account-management/time-based-accounts/ */
export const listAccounts: Handler = (ctx) => ({
  status: 200,
  body: ctx.accounts.all().map((a) => ctx.accounts.listed(a)),
});

/** PUT /account-management/time-based-accounts/<account_id>: full replacement. */
export const putAccount: Handler = (ctx, req) => {
  const raw = req.params.accountId ?? '';
  const accountId = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!ctx.accounts.get(accountId))
    return errorResponse(404, 'ACCOUNT_NOT_FOUND', `Account ${raw} not found`);
  const received =
    req.body.kind === 'json' ? req.body.value : req.body.kind === 'invalid' ? req.body.text : undefined;
  ctx.putLog.push({ accountId, body: received, at: ctx.now() });
  if (ctx.faults.failPutForAccount === accountId) {
    return errorResponse(500, 'INTERNAL_ERROR', `Simulated failure updating account ${accountId}`);
  }
  const body = jsonOf(req.body);
  if (!isObject(body)) return invalidBody('Request body must be a JSON object');
  const settings = parseSettings(ctx, body);
  if (typeof settings === 'string') return invalidBody(settings);
  ctx.accounts.replace(accountId, settings);
  return { status: ctx.options.putStatus, text: '' };
};

/** GET /v2/whoami: the account of the token used. */
export const whoami: Handler = (ctx, req) => {
  if (req.token === 'main') {
    return { status: 200, body: { accountId: SIM_ACCOUNT_IDS.main, accountName: SIM_MAIN_ACCOUNT_NAME } };
  }
  const account = ctx.accounts.get(SIM_ACCOUNT_IDS.agent);
  return {
    status: 200,
    body: { accountId: SIM_ACCOUNT_IDS.agent, accountName: account?.accountName ?? 'Production' },
  };
};
