import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  HTTPReceiver,
  type HTTPReceiverOptions,
  type Logger as SlackLogger,
  SocketModeReceiver,
} from '@slack/bolt';
import type { Config } from '../config/load-config.js';
import type { HttpRoute } from '../http/http-route.js';
import type { Logger } from '../runtime/logger.js';
import { type OpsState, opsRoutes } from './ops-routes.js';
import { SlackStartupError } from './startup-check.js';

/** How long shutdown waits for requests in flight before it closes the HTTP server's sockets. */
const SHUTDOWN_GRACE_MS = 2_000;

type TransportDeps = Parameters<typeof createSlackTransport>[0];

/**
 * How the app is served: Slack's events over HTTP (POST /slack/events) or Socket Mode (SLACK_APP_TOKEN
 * set), and /healthz, /metrics and the other routes on HOST and PORT in both modes.
 */
export function createSlackTransport(deps: {
  config: Config;
  logger: Logger;
  slackLogger: SlackLogger;
  /** HTTP mode: where Slack posts events (manifest.yml's request URLs). */
  endpoints: string;
  ops: Omit<OpsState, 'ready'>;
  routes: HttpRoute[];
  /** OAuth: the HTTPReceiver's installer options (installations/oauth-setup.ts). */
  installer?: Partial<HTTPReceiverOptions> | undefined;
}) {
  const { config, logger } = deps;
  const { metricsToken } = config.ops;
  const { appToken } = config.slack;
  const routes: HttpRoute[] = [
    ...opsRoutes({ ...deps.ops, ready: () => mode.ready(), metricsToken }),
    ...deps.routes,
  ];
  const mode = appToken ? socketMode(appToken, deps, routes) : httpMode(deps, routes);
  let server: Server | undefined;
  return {
    receiver: mode.receiver,
    /** Starts serving; resolves with the HTTP port (/slack/events in HTTP mode, ops routes in both). */
    async start(): Promise<{ port: number }> {
      server = await mode.listen();
      const { port } = server.address() as AddressInfo;
      // Without METRICS_TOKEN anyone who reaches PORT reads /metrics: said at start-up, for operators.
      if (!metricsToken) {
        logger.warn(
          { port, host: config.http.host },
          'GET /metrics is open to anyone who reaches PORT (the public port, beside /slack/events): set METRICS_TOKEN to require a bearer token',
        );
      }
      return { port };
    },
    async stop(): Promise<void> {
      // A browser that showed the install pages may hold an idle connection (Chromium preconnects) that
      // closing waits for: requests in flight get a grace period, then every socket goes.
      const grace = setTimeout(() => server?.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await mode.receiver
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'error while stopping the Slack app'));
      await mode.close();
      clearTimeout(grace);
    },
  };
}

/** Events by POST /slack/events on the receiver's own server, with the routes as its custom routes. */
function httpMode({ config, slackLogger, endpoints, installer }: TransportDeps, routes: HttpRoute[]) {
  const receiver = new HTTPReceiver({
    signingSecret: config.slack.signingSecret ?? '',
    endpoints,
    customRoutes: routes,
    logger: slackLogger,
    // Ack first, work after: listeners never hold Slack's 3-second deadline.
    processBeforeResponse: false,
    // GET /slack/install and /slack/oauth_redirect, by Bolt's InstallProvider.
    ...installer,
  });
  let server: Server | undefined;
  return {
    receiver,
    // The receiver closes its server on stop: not ready from then on.
    ready: () => server?.listening === true,
    async listen() {
      server = (await receiver.start({ port: config.http.port, host: config.http.host })) as Server;
      return server;
    },
    // The receiver closes its server itself.
    close: async () => undefined,
  };
}

/** Events over Slack's socket; the routes on a server of our own, binding to HOST and PORT like HTTP mode. */
function socketMode(appToken: string, { config, slackLogger }: TransportDeps, routes: HttpRoute[]) {
  const receiver = new SocketModeReceiver({
    appToken,
    logger: slackLogger,
    // The socket client builds its own Web client for apps.connections.open from these.
    installerOptions: { clientOptions: { slackApiUrl: config.slack.apiUrl } },
  });
  let connected = false;
  receiver.client.on('connected', () => {
    connected = true;
  });
  receiver.client.on('disconnected', () => {
    connected = false;
  });
  const server = createServer((req, res) => {
    const route = routes.find(
      (candidate) => req.method === candidate.method && req.url?.split('?')[0] === candidate.path,
    );
    if (route) route.handler(req, res);
    else res.writeHead(404).end();
  });
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    receiver,
    ready: () => connected,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.http.port, config.http.host, () => resolve());
      });
      try {
        await receiver.start();
      } catch (error) {
        await close();
        throw socketStartError(error, config.slack.apiUrl);
      }
      return server;
    },
    close,
  };
}

/** Slack's answers to `apps.connections.open` that mean the app-level token itself is wrong. */
const APP_TOKEN_REFUSALS = new Set([
  'invalid_auth',
  'not_authed',
  'token_revoked',
  'token_expired',
  'account_inactive',
  'not_allowed_token_type',
  'missing_scope',
]);

/** Why Socket Mode could not connect, naming what to fix: the app token, else the connection. */
function socketStartError(error: unknown, apiUrl: string): SlackStartupError {
  const code = (error as { data?: { error?: unknown } }).data?.error;
  if (typeof code === 'string' && APP_TOKEN_REFUSALS.has(code)) {
    return new SlackStartupError(
      `Slack refused SLACK_APP_TOKEN (apps.connections.open: ${code}): use the app-level token (xapp-…) of this app, with the connections:write scope`,
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new SlackStartupError(
    `could not open a Socket Mode connection (${apiUrl}apps.connections.open): ${reason}`,
    { cause: error },
  );
}
