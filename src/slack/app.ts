import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import type { Config } from '../config/load-config.js';
import type { Tenancy } from '../conversation/tenancy.js';
import type { HttpRoute } from '../http/http-route.js';
import { toSlackLogger } from '../logging.js';
import type { Logger } from '../runtime/logger.js';
import { tenantMiddleware } from './event-tenant.js';
import { type SlackInstallations, workspaceOfContext } from './installations/oauth-setup.js';
import { type ListenerPorts, registerListeners } from './listeners/index.js';
import { type OpsState, opsRoutes } from './ops-routes.js';
import type { SlackIdentity } from './slack-identity.js';
import { SlackStartupError } from './startup-check.js';
import { webClientOptions } from './web-client.js';

/** How long shutdown waits for requests in flight before it closes the HTTP server's sockets. */
const SHUTDOWN_GRACE_MS = 2_000;

/** The Bolt app in HTTP mode (POST /slack/events) or Socket Mode (app token set); ops routes in both. */
export function createSlackApp(options: {
  config: Config;
  identity: SlackIdentity;
  logger: Logger;
  ops: Omit<OpsState, 'ready'>;
  /** More routes on PORT in both modes, beside /healthz and /metrics (POST /alerts). */
  routes?: HttpRoute[];
  /** Which installations are home, and their store keys: each event's tenant (event-tenant.ts). */
  tenancy: Tenancy;
  listeners: Omit<ListenerPorts, 'identity' | 'logger' | 'commands' | 'allowedChannelIds'>;
  /** OAuth distribution (many workspaces): set ⇒ no bot token; each event's installation is used. */
  installations?: SlackInstallations | undefined;
}) {
  const { config, identity, logger, installations } = options;
  const slackLogger = toSlackLogger(logger);
  let listening = false;
  let socketConnected = false;
  // HTTP mode: listening; Socket Mode: the socket is connected.
  const ready = () => (config.slack.socketMode ? socketConnected : listening);
  const routes = [
    ...opsRoutes({ ...options.ops, ready, metricsToken: config.ops.metricsToken }),
    ...(options.routes ?? []),
  ];
  const clientOptions = webClientOptions(config, slackLogger);

  const socketReceiver = config.slack.appToken
    ? new SocketModeReceiver({
        appToken: config.slack.appToken,
        logger: slackLogger,
        // The socket client builds its own Web client for apps.connections.open from these.
        installerOptions: { clientOptions: { slackApiUrl: config.slack.apiUrl } },
      })
    : undefined;
  const httpReceiver = socketReceiver
    ? undefined
    : new HTTPReceiver({
        signingSecret: config.slack.signingSecret ?? '',
        endpoints: '/slack/events',
        customRoutes: routes,
        logger: slackLogger,
        // Ack first, work after: listeners never hold Slack's 3-second deadline.
        processBeforeResponse: false,
        // GET /slack/install and /slack/oauth_redirect, by Bolt's InstallProvider.
        ...installations?.receiverOptions(clientOptions),
      });
  socketReceiver?.client.on('connected', () => {
    socketConnected = true;
  });
  socketReceiver?.client.on('disconnected', () => {
    socketConnected = false;
  });

  const app = new App({
    // With OAuth each event's token comes from its installation (the receiver's installer authorizes).
    token: installations ? undefined : config.slack.botToken,
    receiver: socketReceiver ?? httpReceiver,
    logger: slackLogger,
    clientOptions,
    // The token was checked once, with a timeout, before we got here (see slack/startup-check.ts).
    tokenVerificationEnabled: false,
    // Threads ↔ sessions live in our own store; Bolt's per-event conversation store is unused work.
    convoStore: false,
    ...(installations ? {} : { botId: identity.botId, botUserId: identity.botUserId }),
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  installations?.register(app);
  // Every event's installation, as one value on its context (event-tenant.ts).
  app.use(
    tenantMiddleware(options.tenancy, (context) =>
      installations ? workspaceOfContext(context)?.identity : identity,
    ),
  );
  registerListeners(app, {
    ...options.listeners,
    identity,
    logger,
    commands: {
      allowExternalUsers: config.access.allowExternalUsers,
      adminUserIds: config.access.adminUserIds,
      accountsConfigured: config.agent.accountToken !== undefined,
      defaultAgentId: config.agent.agentId,
      redirectUri: config.slack.oauth?.redirectUri,
    },
    allowedChannelIds: config.access.allowedChannelIds,
  });

  let opsServer: Server | undefined;
  /** HTTP mode: the receiver's server (events, install pages and the ops routes). */
  let httpServer: Server | undefined;

  /** Starts serving; resolves with the HTTP port (/slack/events in HTTP mode, ops routes in both). */
  async function start(): Promise<{ port: number }> {
    const { port } = await listen();
    // Without METRICS_TOKEN anyone who reaches PORT reads /metrics: said at start-up, for operators.
    if (!config.ops.metricsToken) {
      logger.warn(
        { port, host: config.http.host },
        'GET /metrics is open to anyone who reaches PORT (the public port, beside /slack/events): set METRICS_TOKEN to require a bearer token',
      );
    }
    return { port };
  }

  async function listen(): Promise<{ port: number }> {
    if (httpReceiver) {
      const server = (await httpReceiver.start({ port: config.http.port, host: config.http.host })) as Server;
      httpServer = server;
      listening = true;
      return { port: (server.address() as AddressInfo).port };
    }
    // Socket Mode: our own small server for the ops routes, so it binds to HOST and PORT like HTTP mode.
    opsServer = createServer((req, res) => {
      const route = routes.find(
        (candidate) => req.method === candidate.method && req.url?.split('?')[0] === candidate.path,
      );
      if (route) route.handler(req, res);
      else {
        res.writeHead(404);
        res.end();
      }
    });
    const server = opsServer;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.http.port, config.http.host, () => resolve());
    });
    try {
      await socketReceiver?.start();
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw socketStartError(error, config.slack.apiUrl);
    }
    return { port: (server.address() as AddressInfo).port };
  }

  async function stop(): Promise<void> {
    listening = false;
    // A browser that showed the install pages may hold an idle connection (Chromium preconnects) that
    // closing waits for: requests in flight get a grace period, then every socket goes.
    const servers = [httpServer, opsServer].filter((server) => server !== undefined);
    const grace = setTimeout(() => {
      for (const server of servers) server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    await app
      .stop()
      .catch((error: unknown) => logger.warn({ err: error }, 'error while stopping the Slack app'));
    const server = opsServer;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    clearTimeout(grace);
  }

  return { start, stop };
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
