/** The checks that span several variables (DESIGN "Fixed contracts"); each names the variable to change. */
import { isLoopbackHost, TOKEN_CARRYING_URLS } from './fields.js';

/** Names a problem with the variable `name` (a zod issue at that path). */
export type Issue = (name: string, message: string) => void;

const OAUTH_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'] as const;

/** DESIGN "Many workspaces": SLACK_BOT_TOKEN, or the three OAuth variables (HTTP mode, STATE_ENCRYPTION_KEY). */
export function checkSlackAuth(env: Record<string, unknown>, issue: Issue): void {
  const set = OAUTH_VARIABLES.filter((name) => typeof env[name] === 'string');
  if (set.length === 0) {
    if (typeof env.SLACK_BOT_TOKEN !== 'string') {
      issue(
        'SLACK_BOT_TOKEN',
        'is required (or set SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to install the app through OAuth)',
      );
    }
    return;
  }
  for (const name of OAUTH_VARIABLES.filter((name) => !set.includes(name))) {
    issue(name, `is required with ${set.join(' and ')} (OAuth)`);
  }
  if (typeof env.SLACK_BOT_TOKEN === 'string') {
    issue(
      'SLACK_CLIENT_ID',
      'cannot be set together with SLACK_BOT_TOKEN: choose one workspace (the token) or OAuth',
    );
  }
  const redirect = env.SLACK_REDIRECT_URI;
  if (typeof redirect === 'string' && !redirect.endsWith('/slack/oauth_redirect')) {
    issue(
      'SLACK_REDIRECT_URI',
      'must be the public address of /slack/oauth_redirect, e.g. https://bot.example.com/slack/oauth_redirect',
    );
  }
  if (typeof env.SLACK_APP_TOKEN === 'string') {
    issue('SLACK_APP_TOKEN', 'OAuth distribution (SLACK_CLIENT_ID) runs in HTTP mode: unset SLACK_APP_TOKEN');
  }
  if (env.STATE_ENCRYPTION_KEY === undefined) {
    issue(
      'STATE_ENCRYPTION_KEY',
      'is required with SLACK_CLIENT_ID: Slack installations (their tokens) are kept in the store sealed under it; make one with `openssl rand -base64 32`',
    );
  }
}

/** Tokens would travel in clear text to a host that is not this machine: refuse http:// there. */
export function refusePlainHttp(env: Record<string, unknown>, issue: Issue): void {
  // This runs even when other variables failed, so nothing here is known to be parsed.
  const allowed = Array.isArray(env.ALLOW_HTTP_HOSTS)
    ? env.ALLOW_HTTP_HOSTS.map((host) => String(host).toLowerCase())
    : [];
  for (const name of TOKEN_CARRYING_URLS) {
    const value = env[name];
    if (typeof value !== 'string' || !URL.canParse(value)) continue;
    const url = new URL(value);
    if (url.protocol !== 'http:' || isLoopbackHost(url.hostname) || allowed.includes(url.hostname)) continue;
    issue(
      name,
      `${url.origin} is not on this machine, so the token would travel in clear text: use https:// (plain http:// is accepted only for localhost, 127.0.0.0/8 and ::1, or a host listed in ALLOW_HTTP_HOSTS)`,
    );
  }
}

/** One topology at a time, Sentinel with its primary's name, URL credentials in the URL. */
export function checkRedisTopology(env: Record<string, unknown>, issue: Issue): void {
  const listed = (name: string) => Array.isArray(env[name]) && (env[name] as unknown[]).length > 0;
  const chosen = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'].filter((name) =>
    name === 'REDIS_URL' ? typeof env[name] === 'string' : listed(name),
  );
  if (chosen.length > 1) {
    for (const name of chosen) issue(name, `set only one of ${chosen.join(', ')}`);
  }
  if (listed('REDIS_SENTINELS') && env.REDIS_SENTINEL_NAME === undefined) {
    issue(
      'REDIS_SENTINEL_NAME',
      'is required with REDIS_SENTINELS (the name the sentinels monitor the primary by)',
    );
  }
  if (chosen.length === 1 && chosen[0] === 'REDIS_URL') {
    for (const name of ['REDIS_USERNAME', 'REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD', 'REDIS_TLS']) {
      if (env[name] === undefined || env[name] === false) continue;
      issue(
        name,
        'applies to REDIS_SENTINELS and REDIS_CLUSTER_NODES: with REDIS_URL, put credentials in the URL (rediss:// for TLS)',
      );
    }
  }
}
