/** The service connections, wired once for the composition root (DESIGN "Many accounts"). */

import type { AgentApi, RequestBudget } from '../agent-api/index.js';
import type { Config } from '../config/load-config.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { createSecretBox } from '../secrets/secret-box.js';
import { type AgentApiFactory, createAgentApiFactory } from './agent-api-factory.js';
import { createConnectionAdmin } from './connection-admin.js';
import { DEFAULT_CONNECTION } from './connection-alias.js';
import { connectionRuns, createConnectionClients } from './connection-clients.js';
import type { ConnectionRecordStore } from './connection-record.js';

/** How long the add form's whoami may take: Slack wants the form answered within 3 s. */
export const FORM_CHECK_TIMEOUT_MS = 2_200;

export function createServiceConnections(deps: {
  config: Config;
  factory: AgentApiFactory;
  defaultApi: AgentApi;
  store: ConnectionRecordStore;
  logger: Logger;
  clock: Pick<Clock, 'now'>;
  /** The store key of a thread's installation (tenancy.ts): a thread's runs use only its own aliases. */
  keyOf: (teamId: string) => string | undefined;
}) {
  const { config } = deps;
  const key = config.secrets.encryptionKey;
  const secrets = key ? createSecretBox(key, config.secrets.previousKeys) : undefined;
  const allowedHosts = config.agent.connectionAllowedHosts;
  const shared = { records: deps.store, secrets, factory: deps.factory, allowedHosts };
  const clients = createConnectionClients({ ...shared, defaultApi: deps.defaultApi });
  const admin = createConnectionAdmin({
    ...shared,
    clients,
    defaultBaseUrl: config.agent.baseUrl,
    checkTimeoutMs: FORM_CHECK_TIMEOUT_MS,
    now: () => deps.clock.now(),
    logger: deps.logger,
  });
  return { clients, runs: connectionRuns(clients, deps.keyOf), admin, secrets };
}

/** The factory and the default connection's client (AGENT_API_*), with its request budget. */
export function createDefaultServiceClient(
  config: Config,
  logger: Logger,
  newBudget?: (accountKey: string) => RequestBudget,
) {
  const factory = createAgentApiFactory({ agent: config.agent, logger, newBudget });
  const { baseUrl, token, accountToken } = config.agent;
  const settings = { alias: DEFAULT_CONNECTION, baseUrl, token, accountToken };
  return { factory, defaultApi: factory.make(settings), budget: factory.budgetFor(settings) };
}

export type ServiceConnections = ReturnType<typeof createServiceConnections>;
