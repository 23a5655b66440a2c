import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { SlackResult } from './types.js';

/**
 * Slack's side of OAuth distribution, for tests and the sandbox: an authorize page that lets a
 * person pick where to install (a workspace, or a Grid org for an org-wide install), and
 * `oauth.v2.access`, strict as Slack is (client credentials, single-use codes, the redirect_uri of
 * the authorize step). Each installation gets its own bot token; the stand-in knows which token is
 * whose and refuses a token in another installation's channel.
 * https://docs.slack.dev/authentication/installing-with-oauth
 */

/** A place the app can be installed. */
export interface StandinWorkspace {
  teamId: string;
  teamName: string;
  /** The Grid org the workspace belongs to. */
  enterpriseId?: string | undefined;
  enterpriseName?: string | undefined;
  /** Install once for the whole org (`is_enterprise_install`): then `teamId` is unused in answers. */
  orgWide?: boolean | undefined;
  botUserId: string;
  botId: string;
  /** Channels of this installation: a token of another installation gets channel_not_found there. */
  channels?: string[] | undefined;
}

/** The app's credentials and registered redirect URLs, as in its settings on api.slack.com. */
export interface StandinOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Registered redirect URLs: the authorize page sends the browser to the first unless told another. */
  redirectUrls?: string[];
  workspaces: StandinWorkspace[];
}

/** Who a token speaks for: one installation (`installationId`: `T…`, or `E…` org-wide). */
export interface StandinActor extends StandinWorkspace {
  installationId: string;
}

const CODE_TTL_MS = 10 * 60_000;

const installationIdOf = (w: StandinWorkspace) => (w.orgWide && w.enterpriseId ? w.enterpriseId : w.teamId);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class StandinOAuth {
  redirectUrls: string[];
  private readonly codes = new Map<string, { actor: StandinActor; redirectUri?: string; until: number }>();
  private readonly tokens = new Map<string, StandinActor>();
  private readonly revoked = new Set<string>();

  constructor(private readonly options: StandinOAuthOptions) {
    this.redirectUrls = [...(options.redirectUrls ?? [])];
  }

  /** GET /oauth/v2/authorize: the page a person sees, one "Allow" link per place to install. */
  authorizePage(query: URLSearchParams): { status: number; html: string } {
    if (query.get('client_id') !== this.options.clientId) return page(400, 'Invalid client_id parameter');
    const asked = query.get('redirect_uri') ?? undefined;
    if (asked !== undefined && !this.redirectUrls.includes(asked))
      return page(400, 'redirect_uri did not match');
    const target = asked ?? this.redirectUrls[0];
    if (!target) return page(400, 'The app has no redirect URL');
    const state = query.get('state') ?? '';
    const links = this.options.workspaces.map((workspace) => {
      const actor = { ...workspace, installationId: installationIdOf(workspace) };
      const code = `standin-code-${randomBytes(12).toString('hex')}`;
      this.codes.set(code, {
        actor,
        ...(asked ? { redirectUri: asked } : {}),
        until: Date.now() + CODE_TTL_MS,
      });
      const url = new URL(target);
      url.searchParams.set('code', code);
      url.searchParams.set('state', state);
      const where = workspace.orgWide
        ? `the ${workspace.enterpriseName ?? workspace.enterpriseId} organisation`
        : workspace.teamName;
      return `<li><a href="${escapeHtml(url.toString())}">Allow in ${escapeHtml(where)}</a></li>`;
    });
    const denied = new URL(target);
    denied.searchParams.set('error', 'access_denied');
    denied.searchParams.set('state', state);
    const scopes = escapeHtml(query.get('scope') ?? '');
    return page(
      200,
      `The app asks for: ${scopes}`,
      `<ul>${links.join('')}</ul><p><a href="${escapeHtml(denied.toString())}">Cancel</a></p>`,
    );
  }

  /** oauth.v2.access: the code for a bot token, once. */
  access(req: IncomingMessage, args: Record<string, unknown>): SlackResult {
    const [id, secret] = clientCredentials(req, args);
    if (id !== this.options.clientId) return { ok: false, error: 'invalid_client_id' };
    if (secret !== this.options.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const code = typeof args.code === 'string' ? args.code : '';
    const issued = this.codes.get(code);
    this.codes.delete(code);
    if (!issued || issued.until < Date.now()) return { ok: false, error: 'invalid_code' };
    const redirectUri =
      typeof args.redirect_uri === 'string' && args.redirect_uri !== '' ? args.redirect_uri : undefined;
    if (redirectUri !== issued.redirectUri) return { ok: false, error: 'bad_redirect_uri' };
    const { actor } = issued;
    const token = `xoxb-standin-${actor.installationId}-${randomBytes(8).toString('hex')}`;
    this.tokens.set(token, actor);
    const enterprise = actor.enterpriseId
      ? { id: actor.enterpriseId, name: actor.enterpriseName ?? actor.enterpriseId }
      : null;
    return {
      ok: true,
      app_id: 'A0APP',
      authed_user: { id: 'UINSTALLER' },
      scope: String(args.scope ?? 'chat:write'),
      token_type: 'bot',
      access_token: token,
      bot_user_id: actor.botUserId,
      team: actor.orgWide ? null : { id: actor.teamId, name: actor.teamName },
      enterprise,
      is_enterprise_install: actor.orgWide === true,
    };
  }

  /** Who a token speaks for; undefined for a token this stand-in did not issue. */
  actorOf(token: string): StandinActor | undefined {
    return this.revoked.has(token) ? undefined : this.tokens.get(token);
  }

  /** True when the token was issued here and later revoked (Slack answers token_revoked). */
  wasRevoked(token: string): boolean {
    return this.revoked.has(token);
  }

  /** The tokens issued to an installation (for tests that look for them where they must not be). */
  tokensOf(installationId: string): string[] {
    return [...this.tokens].filter(([, actor]) => actor.installationId === installationId).map(([t]) => t);
  }

  /** Revokes every token of an installation, as uninstalling the app does. */
  revoke(installationId: string): void {
    for (const token of this.tokensOf(installationId)) this.revoked.add(token);
  }

  /** A channel of another installation than the token's: Slack does not show it to this token. */
  foreignChannel(actor: StandinActor, channel: string | undefined): boolean {
    if (!channel) return false;
    const owner = this.options.workspaces.find((w) => w.channels?.includes(channel));
    return owner !== undefined && installationIdOf(owner) !== actor.installationId;
  }
}

/** Client id and secret: HTTP Basic (Slack's preferred way) or form fields. */
function clientCredentials(req: IncomingMessage, args: Record<string, unknown>): [string, string] {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    return [decoded.slice(0, at), decoded.slice(at + 1)];
  }
  return [String(args.client_id ?? ''), String(args.client_secret ?? '')];
}

function page(status: number, message: string, body = ''): { status: number; html: string } {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Slack stand-in: install an app</title></head><body><main><h1>Install the app</h1><p>${escapeHtml(message)}</p>${body}</main></body></html>`;
  return { status, html };
}
