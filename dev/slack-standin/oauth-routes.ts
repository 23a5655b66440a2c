import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StandinActor, StandinOAuth } from './oauth.js';
import type { StandinState } from './state.js';

/** Where the stand-in's authorize page is (SLACK_AUTHORIZE_URL = base + this). */
export const OAUTH_AUTHORIZE_PATH = '/oauth/v2/authorize';

/** GET /oauth/v2/authorize: the page a person installs the app from. */
export function sendAuthorizePage(oauth: StandinOAuth, req: IncomingMessage, res: ServerResponse): void {
  const { status, html } = oauth.authorizePage(new URL(req.url ?? '/', 'http://localhost').searchParams);
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html);
}

/**
 * With OAuth installations every bot token is one the stand-in issued: a revoked one gets
 * `token_revoked`, an unknown one `invalid_auth`, and a channel of another installation
 * `channel_not_found` (Slack does not show one workspace's channels to another's token).
 */
export function oauthRefusal(
  oauth: StandinOAuth | undefined,
  token: string | undefined,
  actor: StandinActor | undefined,
  args: Record<string, unknown>,
): string | undefined {
  if (!oauth || !token?.startsWith('xoxb-')) return undefined;
  if (oauth.wasRevoked(token)) return 'token_revoked';
  if (!actor) return 'invalid_auth';
  const channel = args.channel ?? args.channel_id;
  return oauth.foreignChannel(actor, typeof channel === 'string' ? channel : undefined)
    ? 'channel_not_found'
    : undefined;
}

/**
 * The state as one installation's token sees it: the same conversations and records, with that
 * installation's bot as `identity` (auth.test, the author of what it posts). A view on the state
 * (its prototype), so every change still lands in the one state.
 */
export function actorState(state: StandinState, actor: StandinActor | undefined): StandinState {
  if (!actor) return state;
  const identity = {
    teamId: actor.orgWide && actor.enterpriseId ? actor.enterpriseId : actor.teamId,
    botUserId: actor.botUserId,
    botId: actor.botId,
    appId: state.identity.appId,
    enterpriseId: actor.enterpriseId,
  };
  return Object.create(state, { identity: { value: identity } }) as StandinState;
}
