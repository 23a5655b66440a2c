import type { IncomingMessage, ServerResponse } from 'node:http';

/** What /healthz and /metrics read; filled in by the composition root. */
export interface OpsState {
  /** True once the app serves Slack traffic (HTTP: listening; Socket Mode: socket connected). */
  ready(): boolean;
  metrics(): Promise<{ contentType: string; body: string }>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** GET /healthz and GET /metrics, as plain node:http handlers (Bolt custom routes or our own server). */
export function opsRoutes(state: OpsState): Array<{ path: string; method: string; handler: Handler }> {
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
      handler: (_req, res) => {
        state.metrics().then(
          ({ contentType, body }) => {
            res.writeHead(200, { 'content-type': contentType });
            res.end(body);
          },
          () => {
            res.writeHead(500);
            res.end();
          },
        );
      },
    },
  ];
}
