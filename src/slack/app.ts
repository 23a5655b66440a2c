import { App } from '@slack/bolt';
import type { Config } from '../config/load-config.js';
import type { Tenancy } from '../conversation/tenancy.js';
import type { HttpRoute } from '../http/http-route.js';
import { toSlackLogger } from '../logging.js';
import type { Logger } from '../runtime/logger.js';
import { tenantMiddleware } from './event-tenant.js';
import { type SlackInstallations, workspaceOfContext } from './installations/oauth-setup.js';
import { type ListenerPorts, registerListeners } from './listeners/index.js';
import type { OpsState } from './ops-routes.js';
import type { SlackIdentity } from './slack-identity.js';
import { createSlackTransport } from './slack-transport.js';
import { webClientOptions } from './web-client.js';

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
  const clientOptions = webClientOptions(config, slackLogger);
  const transport = createSlackTransport({
    config,
    logger,
    slackLogger,
    endpoints: '/slack/events',
    ops: options.ops,
    routes: options.routes ?? [],
    installer: installations?.receiverOptions(clientOptions),
  });
  const app = new App({
    // With OAuth each event's token comes from its installation (the receiver's installer authorizes).
    token: installations ? undefined : config.slack.botToken,
    receiver: transport.receiver,
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

  return { start: transport.start, stop: transport.stop };
}
