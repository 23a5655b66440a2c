/**
 * POST /alerts (DESIGN "Alert investigations"): token as Bearer, `X-Alert-Token` or the body's `token`
 * (ALERT_WEBHOOK_TOKEN: home installations; or an installation's own); `?channel=`, `?agent=`, `?team=`.
 * 202 receipt; 400/401/403/404/413 and nothing done; 502 when Slack refused the card.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import type { HttpRoute } from '../http/http-route.js';
import { secretCheck } from '../http/secret-check.js';
import type { Logger } from '../runtime/logger.js';
import { AlertCardError, type AlertIntake } from './alert-intake.js';
import { alertEventKey, isObject, parseAlertBody } from './alert-payload.js';
import type { AlertInstallations } from './alert-ports.js';
import type { AlertTokens } from './alert-tokens.js';
import { parseJson, readTemplateBody } from './template-body.js';
import { alertTarget } from './webhook-target.js';

/** Alert samples are bounded by the vendor, but a body is never read unbounded. */
const ALERT_BODY_LIMIT_BYTES = 256 * 1024;

/** Who a call's token speaks for: the operator (home installations), or one installation. */
type Caller = { kind: 'operator' } | { kind: 'installation'; installationId: string };

type Answer = { status: number; body: Record<string, unknown> };
const refused = (status: number, error: string): Answer => ({ status, body: { error } });

export function alertWebhookRoute(deps: {
  /** ALERT_WEBHOOK_TOKEN (home installations only); with neither it nor `tokens` ⇒ 404. */
  token: string | undefined;
  /** The installations' own tokens; unset without STATE_ENCRYPTION_KEY (nothing can be kept sealed). */
  tokens?: AlertTokens | undefined;
  /** ALERT_CHANNEL_ID. */
  defaultChannelId: string | undefined;
  intake: Pick<AlertIntake, 'receive'>;
  installations: AlertInstallations;
  logger: Logger;
}): HttpRoute {
  const callerOf = callerCheck(deps.token, deps.tokens);

  async function answer(req: IncomingMessage): Promise<Answer> {
    if (!deps.token && !deps.tokens) return refused(404, 'alerts are not enabled here');
    const raw = await readBody(req);
    if (typeof raw !== 'string') return raw;
    const body = parseJson(raw) ?? leniently(raw, deps.logger);
    const caller = await callerOf(presentedTokens(req, body));
    if (!caller) return refused(401, 'a missing or wrong token');
    return receive(req, body, caller);
  }

  async function receive(req: IncomingMessage, body: unknown, caller: Caller): Promise<Answer> {
    const parsed = parseAlertBody(body);
    if (!parsed.ok) return refused(400, parsed.problem);
    const own = caller.kind === 'installation' ? caller.installationId : undefined;
    const target = alertTarget(req.url, {
      channel: deps.defaultChannelId,
      own,
      only: deps.installations.only,
    });
    if (typeof target === 'string') return refused(400, target);
    const { channel, agentId, team } = target;
    // An installation's own token acts in that installation alone.
    if (own !== undefined && team !== own)
      return refused(403, 'this token is another installation’s: it cannot act here');
    const { alert } = parsed;
    const ran = await deps.installations.runAs(team, async (tenant): Promise<Answer> => {
      // The operator's token serves the home installations only (HOME_TEAM_IDS).
      if (caller.kind === 'operator' && !tenant.home)
        return refused(
          403,
          'ALERT_WEBHOOK_TOKEN serves the home workspaces only: use this installation’s own alert address',
        );
      const receipt = await deps.intake.receive(alert, {
        tenant,
        channel,
        agentId,
        source: 'webhook',
        eventKey: alertEventKey(alert),
      });
      return { status: 202, body: { ...receipt, ts: receipt.ts ?? null } };
    });
    if (!ran.found) return refused(400, `the app is not installed in ${team}: install it there first`);
    return ran.value;
  }

  function handler(req: IncomingMessage, res: ServerResponse): void {
    answer(req)
      .catch((error: unknown) => failed(error, deps.logger))
      .then((reply) => send(res, reply));
  }

  return { path: '/alerts', method: 'POST', handler };
}

/** The body as text, read up to its limit; or the 413 or 400 when it could not be. */
async function readBody(req: IncomingMessage): Promise<string | Answer> {
  try {
    return await getRawBody(req, { limit: ALERT_BODY_LIMIT_BYTES, encoding: 'utf8' });
  } catch (error) {
    const tooLarge = (error as { status?: number }).status === 413;
    return tooLarge ? refused(413, 'the body is over 256 KB') : refused(400, 'the body could not be read');
  }
}

/** A filled-in template that is not JSON (a quote in the description): read by its members. */
function leniently(raw: string, logger: Logger): Record<string, unknown> | undefined {
  const members = readTemplateBody(raw);
  if (members) logger.info({ bytes: raw.length }, 'alert body is not JSON; read by the template’s members');
  return members;
}

/** Who a call's tokens speak for: the operator (ALERT_WEBHOOK_TOKEN), an installation (its own), or none. */
function callerCheck(token: string | undefined, tokens: AlertTokens | undefined) {
  const tokenMatches = token ? secretCheck(token) : undefined;
  return async (presented: string[]): Promise<Caller | undefined> => {
    if (tokenMatches?.(presented)) return { kind: 'operator' };
    const installationId = await tokens?.installationOf(presented);
    return installationId ? { kind: 'installation', installationId } : undefined;
  };
}

/** The tokens a call presents: as Bearer, in `X-Alert-Token`, as the body's `token`. */
function presentedTokens(req: IncomingMessage, body: unknown): string[] {
  const header = (name: string) => {
    const value = req.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header('authorization') ?? '')?.[1];
  const bodyToken = isObject(body) && typeof body.token === 'string' ? body.token : undefined;
  return [bearer, header('x-alert-token'), bodyToken].filter((t) => t !== undefined);
}

/** The answer to a call that threw: 502 when Slack refused the card, else 500. */
function failed(error: unknown, logger: Logger): Answer {
  if (error instanceof AlertCardError) {
    logger.warn({ err: error.original }, 'alert card refused by Slack');
    return refused(502, 'Slack refused the alert card; nothing was started');
  }
  logger.error({ err: error }, 'alert not handled');
  return refused(500, 'the alert could not be handled');
}

function send(res: ServerResponse, { status, body }: Answer): void {
  // A refused upload is not read to its end: close the connection rather than drain it.
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(JSON.stringify(body));
}
