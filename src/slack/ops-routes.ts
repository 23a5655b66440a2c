import { bearerTokenCheck } from '../http/bearer-token.js';
import type { HttpRoute } from '../http/http-route.js';

/** What /healthz and /metrics read; filled in by the composition root. */
export interface OpsState {
  /** True once the app serves Slack traffic (HTTP: listening; Socket Mode: socket connected). */
  ready(): boolean;
  metrics(): Promise<{ contentType: string; body: string }>;
  /** Set ⇒ GET /metrics needs it as a bearer token; /healthz, telling only readiness, stays open. */
  metricsToken?: string | undefined;
}

/** GET /healthz and GET /metrics, as plain node:http handlers (Bolt custom routes or our own server). */
export function opsRoutes(state: OpsState): HttpRoute[] {
  const authorised = state.metricsToken ? bearerTokenCheck(state.metricsToken) : () => true;
  return [
    {
      path: '/healthz',
      method: 'GET',
      handler: (_req, res) => {
        const ok = state.ready();
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: ok ? 'ok' : 'starting' }));
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (req, res) => {
        if (!authorised(req.headers.authorization)) {
          // RFC 6750 §3: a refused bearer token is answered with the scheme to use.
          res.writeHead(401, {
            'content-type': 'text/plain; charset=utf-8',
            'www-authenticate': 'Bearer realm="metrics"',
          });
          res.end('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n');
          return;
        }
        state.metrics().then(
          ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
          () => res.writeHead(500).end(),
        );
      },
    },
  ];
}
