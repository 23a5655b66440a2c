import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageBodyRefusal, recordRefusal } from './answer-rules.js';
import type { FaultPlan } from './faults.js';
import { parseJsonArg } from './limits.js';
import type { MethodContext } from './methods/context.js';
import { receiveUpload, UPLOAD_PATH_PREFIX } from './methods/files.js';
import { BOT_METHODS } from './methods/index.js';
import type { StandinActor, StandinOAuth } from './oauth.js';
import { actorState, OAUTH_AUTHORIZE_PATH, oauthRefusal, sendAuthorizePage } from './oauth-routes.js';
import { parseArgs, readBody, uploadedBytes } from './request-body.js';
import { FILE_PATH_PREFIX } from './shared-files.js';
import { SOCKET_PATH, type SocketModeStandin } from './socket-mode.js';
import type { StandinState } from './state.js';
import type { SlackResult, StoredResponse } from './types.js';

/** Path prefix of the Web API (apiUrl = base + '/api/'). */
export const API_PATH_PREFIX = '/api/';
/** Path prefix of slash-command response URLs. */
export const RESPONSE_PATH_PREFIX = '/response/';

/** What the HTTP layer needs from the rest of the stand-in. */
export interface RouterDeps {
  state: StandinState;
  faults: FaultPlan;
  socket: SocketModeStandin;
  acceptsBotToken: (token: string) => boolean;
  acceptsAppToken: (token: string) => boolean;
  /** e.g. 'http://127.0.0.1:PORT' */
  baseUrl: () => string;
  /** OAuth distribution: installations with their own tokens (oauth.ts). */
  oauth?: StandinOAuth | undefined;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function bearer(req: IncomingMessage, args: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim() || undefined;
  return typeof args.token === 'string' && args.token !== '' ? args.token : undefined;
}

/** Slack's token checks: missing → not_authed, wrong kind → not_allowed_token_type, unknown → invalid_auth. */
function authProblem(deps: RouterDeps, method: string, token: string | undefined): string | undefined {
  if (!token) return 'not_authed';
  const wantsApp = method === 'apps.connections.open';
  if (wantsApp ? token.startsWith('xoxb-') : token.startsWith('xapp-')) return 'not_allowed_token_type';
  const accepted = wantsApp ? deps.acceptsAppToken(token) : deps.acceptsBotToken(token);
  return accepted ? undefined : 'invalid_auth';
}

function runMethod(
  deps: RouterDeps,
  method: string,
  args: Record<string, unknown>,
  actor: StandinActor | undefined,
): SlackResult {
  if (method === 'apps.connections.open') {
    const base = deps.baseUrl().replace(/^http/, 'ws');
    const appId = deps.state.identity.appId;
    return { ok: true, url: `${base}${SOCKET_PATH}?ticket=${deps.socket.issueTicket()}&app_id=${appId}` };
  }
  const handler = BOT_METHODS[method];
  if (!handler) return { ok: false, error: 'unknown_method' };
  const ctx: MethodContext = { state: actorState(deps.state, actor), baseUrl: deps.baseUrl() };
  return handler(args, ctx);
}

async function handleApi(deps: RouterDeps, method: string, req: IncomingMessage, res: ServerResponse) {
  let args: Record<string, unknown>;
  try {
    args = await parseArgs(req, await readBody(req));
  } catch {
    args = { unparseable_body: true };
  }
  const token = bearer(req, args);
  const { token: _token, client_secret: _secret, ...logged } = args;
  const actor = token ? deps.oauth?.actorOf(token) : undefined;
  const answer = (status: number, result: SlackResult, headers: Record<string, string> = {}) => {
    deps.state.logCall({
      method,
      args: logged,
      ok: result.ok,
      ...(result.error ? { error: result.error } : {}),
      ...(actor ? { team: actor.installationId } : {}),
      at: Date.now(),
    });
    sendJson(res, status, result, headers);
  };
  if (method === 'oauth.v2.access' && deps.oauth) return answer(200, deps.oauth.access(req, args));
  if (method !== 'apps.connections.open' && !BOT_METHODS[method]) {
    return answer(200, { ok: false, error: 'unknown_method', req_method: method });
  }
  const outage = deps.faults.outageFor(method);
  if (outage && 'drop' in outage) {
    deps.state.logCall({ method, args: logged, ok: false, error: 'connection_dropped', at: Date.now() });
    req.socket.destroy();
    return;
  }
  if (outage) return answer(outage.status, { ok: false, error: `http_${outage.status}` });
  const retryAfter = deps.faults.takeRateLimit(method);
  if (retryAfter !== undefined) {
    return answer(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(retryAfter) });
  }
  const denied = oauthRefusal(deps.oauth, token, actor, args) ?? authProblem(deps, method, token);
  if (denied) return answer(200, { ok: false, error: denied });
  if (args.unparseable_body === true) return answer(200, { ok: false, error: 'invalid_json' });
  const injected = deps.faults.takeFailure(method);
  if (injected) return answer(200, { ok: false, error: injected });
  const result = runMethod(deps, method, args, actor);
  // Slack did the work; the caller hears of it only once the test releases the answer.
  const hold = deps.faults.takeHold(method);
  if (hold) await hold;
  if (deps.faults.takeUnanswered(method)) {
    // Slack did the work; the caller never hears of it (it dies, or the network drops the answer).
    // The connection stays open until the caller gives up or the stand-in closes.
    deps.state.logCall({ method, args: logged, ok: result.ok, error: 'unanswered', at: Date.now() });
    return;
  }
  answer(200, result);
}

async function handleUpload(deps: RouterDeps, fileId: string, req: IncomingMessage, res: ServerResponse) {
  const bytes = await uploadedBytes(req, await readBody(req));
  if (!receiveUpload(deps.state, fileId, bytes)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('file not found');
    return;
  }
  // Slack's upload endpoint answers 200 with a plain-text body.
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${bytes.length}`);
}

async function handleResponseUrl(deps: RouterDeps, id: string, req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  const parsed = parseJsonArg(body.toString('utf8'));
  if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object') {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_payload');
    return;
  }
  // Refused as chat.postMessage would be; not shown (Slack answers 400, like an incoming webhook).
  const refusal = messageBodyRefusal(parsed.value as Record<string, unknown>);
  if (refusal) {
    recordRefusal(deps.state, 'response_url', refusal, parsed.value);
    sendJson(res, 400, refusal);
    return;
  }
  const list = deps.state.responses.get(id) ?? [];
  list.push(parsed.value as StoredResponse);
  deps.state.responses.set(id, list);
  deps.state.touch();
  sendJson(res, 200, { ok: true });
}

/** The node:http request listener: Web API, upload URLs and response URLs. */
export function createRequestListener(deps: RouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = async () => {
      if (req.method === 'GET' && path === OAUTH_AUTHORIZE_PATH && deps.oauth) {
        return sendAuthorizePage(deps.oauth, req, res);
      }
      if (req.method === 'GET' && path.startsWith(FILE_PATH_PREFIX)) {
        return deps.state.sharedFiles.handle(req, res, (token) =>
          deps.oauth ? deps.oauth.actorOf(token) !== undefined : deps.acceptsBotToken(token),
        );
      }
      if (path.startsWith(API_PATH_PREFIX))
        return handleApi(deps, path.slice(API_PATH_PREFIX.length), req, res);
      if (req.method === 'POST' && path.startsWith(UPLOAD_PATH_PREFIX)) {
        return handleUpload(deps, path.slice(UPLOAD_PATH_PREFIX.length), req, res);
      }
      if (req.method === 'POST' && path.startsWith(RESPONSE_PATH_PREFIX)) {
        return handleResponseUrl(deps, decodeURIComponent(path.slice(RESPONSE_PATH_PREFIX.length)), req, res);
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error', detail: String(error) });
      else res.end();
    });
  };
}
