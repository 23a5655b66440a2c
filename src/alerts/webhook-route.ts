/**
 * POST /alerts (DESIGN "Alert investigations"): the vendor's custom notification endpoint. The
 * token comes as `Authorization: Bearer …`, `X-Alert-Token`, or the body's `token`, compared in
 * constant time; `?channel=` (else ALERT_CHANNEL_ID) and optional `?agent=`. Answers:
 * 202 `{"outcome", "channel", "ts"}`; 400 a body that is not a JSON object, without
 * `alert_title`, or no channel; 401 a missing or wrong token; 413 a body over 256 KB; 404 when
 * ALERT_WEBHOOK_TOKEN is unset; 502 when Slack refused the card (nothing started, the vendor may
 * retry). With OAuth `?team=` names the installation (400 without it, or for one not installed).
 * Nothing is posted or started on a bad request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import getRawBody from 'raw-body';
import { isAgentId } from '../conversation/context/channel-agents.js';
import type { HttpRoute } from '../http/http-route.js';
import { secretCheck } from '../http/secret-check.js';
import type { Logger } from '../runtime/logger.js';
import { AlertCardError, type AlertIntake } from './alert-intake.js';
import { alertEventKey } from './alert-keys.js';
import { parseAlertBody } from './alert-payload.js';
import type { AlertInstallations } from './alert-ports.js';
import { parseJson, readTemplateBody } from './template-body.js';

/** The body limit: alert samples are bounded by the vendor, but a body is never read unbounded. */
export const ALERT_BODY_LIMIT_BYTES = 256 * 1024;

/** Slack conversation ids: an upper-case letter and upper-case letters or digits. */
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

/** A workspace (`T…`) or an Enterprise Grid org (`E…`). */
const TEAM_ID = /^[TE][A-Z0-9]{2,}$/;

export interface AlertWebhookDeps {
  /** ALERT_WEBHOOK_TOKEN; unset ⇒ 404. */
  token: string | undefined;
  /** ALERT_CHANNEL_ID. */
  defaultChannelId: string | undefined;
  intake: Pick<AlertIntake, 'receive'>;
  /** With OAuth: `?team=` is required and names the installation the alert is for. */
  installations?: AlertInstallations | undefined;
  logger: Logger;
}

type Answer = { status: number; body: Record<string, unknown> };

export function alertWebhookRoute(deps: AlertWebhookDeps): HttpRoute {
  const tokenMatches = deps.token ? secretCheck(deps.token) : undefined;

  async function answer(req: IncomingMessage): Promise<Answer> {
    if (!tokenMatches) return { status: 404, body: { error: 'alerts are not enabled here' } };
    let raw: string;
    try {
      raw = await getRawBody(req, { limit: ALERT_BODY_LIMIT_BYTES, encoding: 'utf8' });
    } catch (error) {
      const status = (error as { status?: number }).status === 413 ? 413 : 400;
      return {
        status,
        body: { error: status === 413 ? 'the body is over 256 KB' : 'the body could not be read' },
      };
    }
    const body = parseJson(raw) ?? leniently(raw);
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header('authorization') ?? '')?.[1];
    const bodyToken = isObject(body) && typeof body.token === 'string' ? body.token : undefined;
    if (!tokenMatches([bearer, header('x-alert-token'), bodyToken].filter((t) => t !== undefined))) {
      return { status: 401, body: { error: 'a missing or wrong token' } };
    }
    return receive(req, body);
  }

  /** A filled-in template that is not JSON (a quote in the description): read by its members. */
  function leniently(raw: string): Record<string, unknown> | undefined {
    const members = readTemplateBody(raw);
    if (members)
      deps.logger.info({ bytes: raw.length }, 'alert body is not JSON; read by the template’s members');
    return members;
  }

  async function receive(req: IncomingMessage, body: unknown): Promise<Answer> {
    const parsed = parseAlertBody(body);
    if (!parsed.ok) return { status: 400, body: { error: parsed.problem } };
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const channel = query.get('channel')?.trim() || deps.defaultChannelId;
    if (!channel)
      return { status: 400, body: { error: 'no channel: add ?channel=<id> or set ALERT_CHANNEL_ID' } };
    if (!CHANNEL_ID.test(channel))
      return { status: 400, body: { error: 'channel is not a Slack channel id' } };
    const agentId = query.get('agent')?.trim() || undefined;
    if (agentId !== undefined && !isAgentId(agentId))
      return { status: 400, body: { error: 'agent is not an agent id' } };
    const { alert } = parsed;
    const receive = async (): Promise<Answer> => {
      const receipt = await deps.intake.receive(alert, {
        channel,
        agentId,
        source: 'webhook',
        eventKey: alertEventKey(alert),
      });
      return { status: 202, body: { ...receipt, ts: receipt.ts ?? null } };
    };
    if (!deps.installations) return receive();
    const team = query.get('team')?.trim();
    if (!team)
      return {
        status: 400,
        body: { error: 'this app serves several workspaces: add ?team=<workspace id T…, or org id E…>' },
      };
    if (!TEAM_ID.test(team))
      return { status: 400, body: { error: 'team is not a Slack workspace or org id' } };
    const ran = await deps.installations.runAs(team, receive);
    if (!ran.found)
      return { status: 400, body: { error: `the app is not installed in ${team}: install it there first` } };
    return ran.value;
  }

  function handler(req: IncomingMessage, res: ServerResponse): void {
    answer(req)
      .catch((error: unknown): Answer => {
        if (error instanceof AlertCardError) {
          deps.logger.warn({ err: error.original }, 'alert card refused by Slack');
          return { status: 502, body: { error: 'Slack refused the alert card; nothing was started' } };
        }
        deps.logger.error({ err: error }, 'alert not handled');
        return { status: 500, body: { error: 'the alert could not be handled' } };
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
