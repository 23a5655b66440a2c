import net, { BlockList } from 'node:net';
import { z } from 'zod';
import { decodeKey } from '../secrets/secret-box.js';
import { parseNodeAddress } from '../store/redis-topology.js';

/** The environment's field types, one schema each: what config.ts's variables are made of. */

/** LOG_LEVEL's values (pino's levels, and `silent`). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** An empty (or blank) value reads as unset, so the default applies: `PORT=` is not port 0. */
export const emptyAsUnset = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
/** `number` from `min` (to `max`, both included), `fallback` when unset, each bound in words. */
const between = (number: z.ZodCoercedNumber, fallback: number, min: number, max?: number) => {
  const low = number.min(min, `must be at least ${min}`);
  const bounded = max === undefined ? low : low.max(max, `must be at most ${max}`);
  return z.preprocess(emptyAsUnset, bounded.default(fallback));
};
const NOT_WHOLE = 'must be a whole number';
export const intFrom = (fallback: number, min = 0, max?: number) =>
  between(z.coerce.number({ error: NOT_WHOLE }).int(NOT_WHOLE), fallback, min, max);
/** A number (fractions allowed) from `min` to `max`, both included, in words when it is not one. */
export const numberFrom = (fallback: number, min: number, max: number) =>
  between(z.coerce.number({ error: 'must be a number' }), fallback, min, max);
export const csvWithDefault = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0),
    );
export const csv = csvWithDefault('');
/** Comma-separated Slack workspace (`T…`) and Enterprise Grid org (`E…`) ids. */
export const teamIds = csv.pipe(
  z
    .array(z.string())
    .refine(
      (ids) => ids.every((id) => /^[TE][A-Z0-9]{2,}$/.test(id)),
      'must be Slack workspace ids (T…) or org ids (E…), comma-separated',
    ),
);
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes');
export const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** A full URL, or a bare host meaning `https://host`; returned without a trailing slash. */
export function normaliseBaseUrl(value: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  return new URL(withScheme).toString().replace(/\/+$/, '');
}

/** A value that must be set: unset or blank reads "is required". */
export const required = z.string({ error: 'is required' }).trim().min(1, 'is required');

export const baseUrl = required.transform((value, ctx) => {
  try {
    return normaliseBaseUrl(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: `is not a URL or host name: ${value}` });
    return z.NEVER;
  }
});

export const slackApiUrl = z
  .string()
  .trim()
  .default('https://slack.com/api/')
  .refine((value) => URL.canParse(value), 'is not a URL')
  .transform((value) => (value.endsWith('/') ? value : `${value}/`));

/** Addresses whose traffic never leaves the machine (IPv4-mapped IPv6 forms included). */
export const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for `localhost`, 127.0.0.0/8 and ::1, as a WHATWG URL spells its host (IPv6 in brackets). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return LOOPBACK.check(host, 'ipv4');
  if (net.isIPv6(host)) return LOOPBACK.check(host, 'ipv6');
  return false;
}

/** Base addresses that carry a token on every request: plain http:// only to loopback or ALLOW_HTTP_HOSTS. */
export const TOKEN_CARRYING_URLS = ['AGENT_API_URL', 'SLACK_API_URL'] as const;

/** Comma-separated items, each read by `parse`; every one it cannot read is named in `problem`'s words. */
const listOf = <T>(parse: (item: string) => T | undefined, problem: (item: string) => string) =>
  csv.transform((values, ctx) => {
    const items: T[] = [];
    for (const value of values) {
      const item = parse(value);
      if (item === undefined) ctx.addIssue({ code: 'custom', message: problem(value) });
      else items.push(item);
    }
    return items;
  });

/** CONNECTION_ALLOWED_HOSTS, lower case: names only (no scheme, port or path), so it means exactly those hosts. */
export const hostNames = listOf(
  (value) => {
    const host = value.toLowerCase();
    const parsed = URL.canParse(`https://${host}`) ? new URL(`https://${host}`) : undefined;
    return parsed?.hostname === host && parsed.port === '' && host.includes('.') ? host : undefined;
  },
  (value) =>
    `must be comma-separated host names like logs-api.example.com (no scheme, port or path): ${value}`,
);

const isHttpUrl = (value: string) => /^https?:\/\//i.test(value) && URL.canParse(value);
const NOT_HTTP_URL = 'must be an http:// or https:// URL';

/** An optional absolute URL (http or https). */
export const optionalUrl = optionalString.refine(
  (value) => value === undefined || isHttpUrl(value),
  NOT_HTTP_URL,
);

/** SLACK_AUTHORIZE_URL: an http(s) URL, Slack's own authorize page unless set. */
export const authorizeUrl = z.preprocess(
  emptyAsUnset,
  z.string().trim().default('https://slack.com/oauth/v2/authorize').refine(isHttpUrl, NOT_HTTP_URL),
);

/** Redis's own URL schemes; `localhost:6379` would otherwise fail later as "Invalid protocol". */
export const redisUrl = optionalString.refine(
  (value) => value === undefined || /^rediss?:\/\/[^/]/i.test(value),
  'must be a redis:// or rediss:// URL, e.g. redis://localhost:6379',
);

/** REDIS_SENTINELS / REDIS_CLUSTER_NODES: `host:port,…` (IPv6 in brackets). */
export const redisNodes = listOf(
  parseNodeAddress,
  (value) => `"${value}" is not host:port (list them as host:port,host:port)`,
);

/** An app-level token (`xapp-…`): with another token Slack refuses the socket, and the client retries for ever. */
export const appToken = optionalString.superRefine((value, ctx) => {
  if (value === undefined || value.startsWith('xapp-')) return;
  const kind = value.startsWith('xoxb-')
    ? ', not a bot token (xoxb-…)'
    : value.startsWith('xox')
      ? ', not a user or bot token'
      : '';
  ctx.addIssue({
    code: 'custom',
    message: `must be an app-level token (xapp-…) with connections:write${kind}`,
  });
});
/** The manifest's `features.agent_view.suggested_prompts`, the default of SUGGESTED_PROMPTS. */
export const DEFAULT_SUGGESTED_PROMPTS: ReadonlyArray<{ title: string; message: string }> = [
  { title: 'Why are errors up?', message: 'Why did the error rate go up in the last hour?' },
  {
    title: 'Summarise recent alerts',
    message: 'Summarise the alerts that fired today and what they have in common.',
  },
  { title: 'Investigate latency', message: 'Which services have the highest latency right now, and why?' },
];

/** A JSON array of at most 4 `{title, message}` (Slack shows no more in the agent view). */
export const suggestedPrompts = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value.trim() === '') return [...DEFAULT_SUGGESTED_PROMPTS];
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not JSON (a JSON array of {title, message})' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(z.object({ title: z.string().trim().min(1), message: z.string().trim().min(1) }))
      .max(4, 'must list at most 4 prompts'),
  );

/** Sent as `Authorization: Bearer <token>`: one header-safe word (visible ASCII, no spaces). */
export const metricsToken = optionalString.refine(
  (value) => value === undefined || /^[\x21-\x7e]+$/.test(value),
  'must be one word of visible ASCII characters (it is sent as Authorization: Bearer <token>)',
);

/** Sent in a header or a vendor's JSON body: one word of visible ASCII, long enough not to be guessed. */
export const alertToken = optionalString.refine(
  (value) => value === undefined || /^[\x21-\x7e]{16,}$/.test(value),
  'must be one word of at least 16 visible ASCII characters (e.g. openssl rand -hex 32)',
);

/** STATE_ENCRYPTION_KEY: 32 bytes in base64 (`openssl rand -base64 32`). */
export const encryptionKey = optionalString.transform((value, ctx) => {
  if (value === undefined) return undefined;
  try {
    return decodeKey(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
export const encryptionKeys = csv.transform((values, ctx) => {
  const keys: Buffer[] = [];
  for (const value of values) {
    try {
      keys.push(decodeKey(value));
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `each key ${(error as Error).message}` });
      return z.NEVER;
    }
  }
  return keys;
});
