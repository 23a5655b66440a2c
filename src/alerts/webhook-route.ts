/**
 * POST /alerts (DESIGN "Alert investigations"): token as Bearer, `X-Alert-Token` or the body's `token`
 * (ALERT_WEBHOOK_TOKEN: home installations; or an installation's own); `?channel=`, `?agent=`, `?team=`.
 * 202 receipt; 400/401/403/404/413 and nothing done; 502 when Slack refused the card.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { isAgentId } from '../conversation/context/channel-agents.js';
import type { HttpRoute } from '../http/http-route.js';
import { secretCheck } from '../http/secret-check.js';
import type { Logger } from '../runtime/logger.js';
import { AlertCardError, type AlertIntake } from './alert-intake.js';
import { alertEventKey, isObject, parseAlertBody } from './alert-payload.js';
import type { AlertInstallations } from './alert-ports.js';
import type { AlertTokens } from './alert-tokens.js';
import { parseJson, readTemplateBody } from './template-body.js';

/** Alert samples are bounded by the vendor, but a body is never read unbounded. */
const ALERT_BODY_LIMIT_BYTES = 256 * 1024;

/** Channels and private channels (groups): a DM is never an alert channel (nobody checks who reads it). */
const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;

/** A workspace (`T…`) or an Enterprise Grid org (`E…`). */
const TEAM_ID = /^[TE][A-Z0-9]{2,}$/;

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
  const tokenMatches = deps.token ? secretCheck(deps.token) : undefined;

  async function answer(req: IncomingMessage): Promise<Answer> {
    if (!tokenMatches && !deps.tokens) return refused(404, 'alerts are not enabled here');
    let raw: string;
    try {
      raw = await getRawBody(req, { limit: ALERT_BODY_LIMIT_BYTES, encoding: 'utf8' });
    } catch (error) {
      const tooLarge = (error as { status?: number }).status === 413;
      return tooLarge ? refused(413, 'the body is over 256 KB') : refused(400, 'the body could not be read');
    }
    const body = parseJson(raw) ?? leniently(raw);
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header('authorization') ?? '')?.[1];
    const bodyToken = isObject(body) && typeof body.token === 'string' ? body.token : undefined;
    const presented = [bearer, header('x-alert-token'), bodyToken].filter((t) => t !== undefined);
    const caller = await callerOf(presented);
    if (!caller) return refused(401, 'a missing or wrong token');
    return receive(req, body, caller);
  }

  async function callerOf(presented: string[]): Promise<Caller | undefined> {
    if (tokenMatches?.(presented)) return { kind: 'operator' };
    const installationId = await deps.tokens?.installationOf(presented);
    return installationId ? { kind: 'installation', installationId } : undefined;
  }

  /** A filled-in template that is not JSON (a quote in the description): read by its members. */
  function leniently(raw: string): Record<string, unknown> | undefined {
    const members = readTemplateBody(raw);
    if (members)
      deps.logger.info({ bytes: raw.length }, 'alert body is not JSON; read by the template’s members');
    return members;
  }

  async function receive(req: IncomingMessage, body: unknown, caller: Caller): Promise<Answer> {
    const parsed = parseAlertBody(body);
    if (!parsed.ok) return refused(400, parsed.problem);
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const channel = query.get('channel')?.trim() || deps.defaultChannelId;
    if (!channel) return refused(400, 'no channel: add ?channel=<id> or set ALERT_CHANNEL_ID');
    if (!CHANNEL_ID.test(channel))
      return refused(
        400,
        'channel is not a Slack channel id (a channel C… or private channel G…; never a DM)',
      );
    const agentId = query.get('agent')?.trim() || undefined;
    if (agentId !== undefined && !isAgentId(agentId)) return refused(400, 'agent is not an agent id');
    const { alert } = parsed;
    const own = caller.kind === 'installation' ? caller.installationId : undefined;
    const named = query.get('team')?.trim() || undefined;
    if (named !== undefined && !TEAM_ID.test(named))
      return refused(400, 'team is not a Slack workspace or org id');
    const team = named ?? own ?? deps.installations.only;
    if (!team)
      return refused(400, 'this app serves several workspaces: add ?team=<workspace id T…, or org id E…>');
    // An installation's own token acts in that installation alone.
    if (own !== undefined && team !== own)
      return refused(403, 'this token is another installation’s: it cannot act here');
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
      .catch((error: unknown): Answer => {
        if (error instanceof AlertCardError) {
          deps.logger.warn({ err: error.original }, 'alert card refused by Slack');
          return refused(502, 'Slack refused the alert card; nothing was started');
        }
        deps.logger.error({ err: error }, 'alert not handled');
        return refused(500, 'the alert could not be handled');
      })
      .then(({ status, body }) => {
        // A refused upload is not read to its end: close the connection rather than drain it.
        res.writeHead(status, {
          'content-type': 'application/json',
          ...(status === 413 ? { connection: 'close' } : {}),
        });
        res.end(JSON.stringify(body));
      });
  }

  return { path: '/alerts', method: 'POST', handler };
}
