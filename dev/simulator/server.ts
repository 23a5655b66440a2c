/**
 * The HTTP front: concurrency limit, token checks, routing, recording, and writing responses.
 * Order of checks: a token of another region is refused on every path (the real service answers so
 * before anything else), then the path must exist, then the token must be allowed there.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authorize, classifyToken, regionMismatch } from './auth.js';
import type { SimContext } from './context.js';
import { malformedResponse, reshapeErrorBody } from './faults.js';
import { errorResponse, readBody, type SimResponse } from './http-io.js';
import { buildRoutes, matchRoute } from './router.js';
import type { RequestRecord, TokenKind } from './types.js';

/** Counters and records the Simulator object exposes. */
export interface ServerStats {
  requests: RequestRecord[];
  inFlight: number;
  maxInFlightSeen: number;
}

export interface SimServer {
  server: Server;
  stats: ServerStats;
}

/** Builds (does not start) the HTTP server over a context. */
export function createSimServer(
  ctx: SimContext,
  opts: { quiet: boolean; accountPathPrefix?: string },
): SimServer {
  const routes = buildRoutes(opts.accountPathPrefix);
  const stats: ServerStats = { requests: [], inFlight: 0, maxInFlightSeen: 0 };
  const active = new Set<AbortController>();
  // Closing ends every held long poll and latency sleep at once.
  ctx.closing.addEventListener('abort', () => {
    for (const controller of active) controller.abort();
  });

  const server = createServer((req, res) => {
    const at = Date.now();
    stats.inFlight += 1;
    stats.maxInFlightSeen = Math.max(stats.maxInFlightSeen, stats.inFlight);
    const controller = new AbortController();
    active.add(controller);
    res.on('close', () => {
      stats.inFlight -= 1;
      active.delete(controller);
      controller.abort(); // the client went away: stop holding its poll
    });
    if (ctx.closing.aborted) controller.abort();
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://simulator.invalid').pathname;
    const presented = classifyToken(req.headers['x-api-token'], ctx.options.agentToken);
    const token = presented === 'agent' ? (ctx.faults.agentTokenAs ?? presented) : presented;
    const answer: Promise<SimResponse> =
      stats.inFlight > ctx.options.maxConcurrent
        ? Promise.resolve(
            errorResponse(429, 'TOO_MANY_REQUESTS', 'Too many concurrent requests for this account', {
              'retry-after': '1',
            }),
          )
        : dispatch(ctx, routes, req, { method, path, token, signal: controller.signal });
    answer
      .catch((error: unknown) => errorResponse(500, 'INTERNAL_ERROR', `Simulator failure: ${String(error)}`))
      .then((answered) => {
        const response = reshapeErrorBody(answered, ctx.faults.errorBodyShape);
        write(res, response);
        const record: RequestRecord = { method, path, status: response.status, at, finishedAt: Date.now() };
        if (token !== undefined) record.token = token;
        stats.requests.push(record);
        if (!opts.quiet) {
          const { status, finishedAt } = record;
          process.stdout.write(
            `${JSON.stringify({ simulator: method, path, status, ms: finishedAt - at, token })}\n`,
          );
        }
      });
  });
  return { server, stats };
}

interface RequestInfo {
  method: string;
  path: string;
  token: TokenKind | undefined;
  signal: AbortSignal;
}

async function dispatch(
  ctx: SimContext,
  routes: ReturnType<typeof buildRoutes>,
  req: IncomingMessage,
  info: RequestInfo,
): Promise<SimResponse> {
  if (info.token === 'otherRegion') return regionMismatch(ctx.options.region);
  const match = matchRoute(routes, info.method, info.path);
  if (!match) return errorResponse(404, 'NOT_FOUND', `No endpoint ${info.method} ${info.path}`);
  const refused = authorize(match.kind, info.token);
  if (refused) return refused;
  const body = await readBody(req);
  const malformed = ctx.faults.malformed;
  if (malformed !== undefined && malformed !== '' && info.path.startsWith(malformed))
    return malformedResponse();
  return match.handler(ctx, {
    method: info.method,
    path: info.path,
    params: match.params,
    body,
    ...(info.token !== undefined && { token: info.token }),
    signal: info.signal,
  });
}

function write(res: ServerResponse, response: SimResponse): void {
  if (res.destroyed || res.writableEnded) return;
  const headers: Record<string, string> = { ...response.headers };
  let payload = '';
  if (response.text !== undefined) payload = response.text;
  else if (response.body !== undefined) payload = JSON.stringify(response.body);
  if (response.status !== 204 && payload !== '') {
    headers['content-type'] = response.contentType ?? 'application/json; charset=utf-8';
  }
  res.writeHead(response.status, headers);
  res.end(response.status === 204 ? undefined : payload);
}
