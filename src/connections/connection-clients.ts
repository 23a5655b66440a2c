/**
 * The agent-service client of each connection, by alias (DESIGN "Many accounts"): the default
 * one from AGENT_API_*, the others built on first use from their stored record (token opened with
 * the secret box) and cached. Adding or removing a connection forgets its client on this replica;
 * another replica keeps its cached client until it restarts or the alias is used after removal
 * there (then the record is gone and the call fails with UnknownConnectionError).
 */
import type { AgentApi } from '../agent-api/index.js';
import type { ConnectionRuns } from '../conversation/connection-runs.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { AgentApiFactory } from './agent-api-factory.js';
import { DEFAULT_CONNECTION } from './connection-alias.js';
import type { ConnectionRecordStore } from './connection-record.js';

/** A thread or channel names a connection that is not (or no longer) there. */
export class UnknownConnectionError extends Error {
  readonly code = 'unknown_connection';
  constructor(readonly alias: string) {
    super(`no service connection “${alias}”`);
    this.name = 'UnknownConnectionError';
  }
}

/** Connections were added with a key that is not configured now (STATE_ENCRYPTION_KEY unset). */
export class ConnectionKeyMissingError extends Error {
  readonly code = 'encryption_key_missing';
  constructor(readonly alias: string) {
    super(`the token of connection “${alias}” cannot be opened: STATE_ENCRYPTION_KEY is not set`);
    this.name = 'ConnectionKeyMissingError';
  }
}

export interface ConnectionClients {
  /** The client of `alias` (undefined or `default`: the default connection). */
  api(alias?: string | undefined): Promise<AgentApi>;
  /** Drops the cached client of `alias` (after it was added again or removed). */
  forget(alias: string): void;
}

export function createConnectionClients(deps: {
  defaultApi: AgentApi;
  records: Pick<ConnectionRecordStore, 'getConnection'>;
  secrets: SecretBox | undefined;
  factory: Pick<AgentApiFactory, 'make'>;
}): ConnectionClients {
  const cache = new Map<string, Promise<AgentApi>>();

  async function build(alias: string): Promise<AgentApi> {
    const record = await deps.records.getConnection(alias);
    if (!record) throw new UnknownConnectionError(alias);
    if (!deps.secrets) throw new ConnectionKeyMissingError(alias);
    return deps.factory.make({
      alias,
      baseUrl: record.baseUrl,
      token: deps.secrets.open(record.sealedToken),
      accountId: record.accountId,
    });
  }

  return {
    api(alias) {
      if (alias === undefined || alias === DEFAULT_CONNECTION) return Promise.resolve(deps.defaultApi);
      let client = cache.get(alias);
      if (!client) {
        client = build(alias);
        cache.set(alias, client);
        // A failed build is not cached: the record may appear (another replica adds it).
        client.catch(() => cache.delete(alias));
      }
      return client;
    },
    forget(alias) {
      cache.delete(alias);
    },
  };
}

/** The conversation's port: each alias's runs, polls, follow-ups and feedback on its own client. */
export function connectionRuns(clients: ConnectionClients): ConnectionRuns {
  return {
    on(connection) {
      const api = () => clients.api(connection);
      return {
        startRun: async (agentId, input, options) => (await api()).startRun(agentId, input, options),
        followUp: async (agentId, sessionId, input, options) =>
          (await api()).followUp(agentId, sessionId, input, options),
        getRunStatus: async (agentId, sessionId, options) =>
          (await api()).getRunStatus(agentId, sessionId, options),
        submitFeedback: async (agentId, items, options) =>
          (await api()).submitFeedback(agentId, items, options),
      };
    },
  };
}
