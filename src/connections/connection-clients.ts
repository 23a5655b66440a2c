/** Each connection's client (DESIGN "Many accounts"), cached and rechecked so other replicas' changes count. */
import type { AgentApi } from '../agent-api/index.js';
import type { ConnectionRuns } from '../conversation/connection-runs.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { AgentApiFactory } from './agent-api-factory.js';
import { DEFAULT_CONNECTION } from './connection-alias.js';
import {
  type ConnectionRecordStore,
  connectionSealPlace,
  type StoredConnection,
} from './connection-record.js';
import { isAllowedServiceHost } from './connection-region.js';

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

/** A stored connection's address breaks the service-address rule: its token is not sent there. */
export class ConnectionAddressRefusedError extends Error {
  readonly code = 'address_not_allowed';
  constructor(readonly alias: string) {
    super(`the address of connection “${alias}” is not a service address`);
    this.name = 'ConnectionAddressRefusedError';
  }
}

/** A client and the record it was built from: a different token or address means a new client. */
type Cached = { client: AgentApi; record: StoredConnection; checkedAt: number };

/** What the clients and the admin share (service-connections.ts passes one set to both). */
export type ConnectionAccess = {
  /** With `saveConnection`, a token sealed before record binding is re-sealed for its record. */
  records: Pick<ConnectionRecordStore, 'getConnection'> &
    Partial<Pick<ConnectionRecordStore, 'saveConnection'>>;
  /** Unset without STATE_ENCRYPTION_KEY: no token is opened, and adding is refused. */
  secrets: SecretBox | undefined;
  factory: Pick<AgentApiFactory, 'make'>;
  /** CONNECTION_ALLOWED_HOSTS: hosts besides the regional API hosts and loopback (lower case). */
  allowedHosts?: readonly string[] | undefined;
};

/** A client for a stored connection, or why its token may not be used; `sealedToken` as now stored. */
async function clientOfRecord(alias: string, record: StoredConnection, deps: ConnectionAccess) {
  const host = URL.canParse(record.baseUrl) ? new URL(record.baseUrl).hostname : '';
  if (!isAllowedServiceHost(host, deps.allowedHosts ?? [])) {
    throw new ConnectionAddressRefusedError(alias);
  }
  if (!deps.secrets) throw new ConnectionKeyMissingError(alias);
  const token = deps.secrets.open(record.sealedToken, connectionSealPlace(record));
  let sealedToken = record.sealedToken;
  // A token sealed before record binding, sealed again for the record it was found under (once).
  if (deps.secrets.isUnbound(sealedToken) && deps.records.saveConnection) {
    sealedToken = deps.secrets.seal(token, connectionSealPlace(record));
    await deps.records.saveConnection({ ...record, sealedToken });
  }
  const client = deps.factory.make({ alias, baseUrl: record.baseUrl, token, accountId: record.accountId });
  return { client, sealedToken };
}

export function createConnectionClients(
  deps: ConnectionAccess & {
    defaultApi: AgentApi;
    /** How long a cached client is used before its record is read again. Default 30 s. */
    recheckMs?: number | undefined;
    now?: (() => number) | undefined;
  },
) {
  const recheckMs = deps.recheckMs ?? 30_000;
  const now = deps.now ?? Date.now;
  const cache = new Map<string, Cached>();
  /** One record read per alias at a time, however many calls wait for it. */
  const reading = new Map<string, Promise<AgentApi>>();

  async function resolve(alias: string): Promise<AgentApi> {
    const record = await deps.records.getConnection(alias);
    const cached = cache.get(alias);
    if (
      record &&
      cached?.record.sealedToken === record.sealedToken &&
      cached.record.baseUrl === record.baseUrl
    ) {
      cached.checkedAt = now();
      cached.record = record;
      return cached.client;
    }
    cache.delete(alias);
    if (!record) throw new UnknownConnectionError(alias);
    const { client, sealedToken } = await clientOfRecord(alias, record, deps);
    cache.set(alias, { client, record: { ...record, sealedToken }, checkedAt: now() });
    return client;
  }

  /** The alias's client, whoever asks (ownership is checked by `api`). */
  async function clientOf(alias: string): Promise<AgentApi> {
    const cached = cache.get(alias);
    if (cached && now() - cached.checkedAt < recheckMs) return cached.client;
    let pending = reading.get(alias);
    if (!pending) {
      pending = resolve(alias).finally(() => reading.delete(alias));
      reading.set(alias, pending);
    }
    return pending;
  }

  return {
    /** `alias`'s client (undefined: the default) for installation `owner`: another's is unknown here. */
    async api(alias: string | undefined, owner: string | undefined): Promise<AgentApi> {
      if (alias === undefined || alias === DEFAULT_CONNECTION) return deps.defaultApi;
      const client = await clientOf(alias);
      // Another installation's alias is as unknown as a removed one: its token never serves here.
      if (cache.get(alias)?.record.installation !== owner) throw new UnknownConnectionError(alias);
      return client;
    },
    /** Drops the cached client of `alias` (after it was added again or removed). */
    forget(alias: string): void {
      cache.delete(alias);
    },
  };
}

export type ConnectionClients = ReturnType<typeof createConnectionClients>;

/** The conversation's port: each alias's runs, polls, follow-ups and feedback on its own client. */
export function connectionRuns(
  clients: ConnectionClients,
  keyOf: (teamId: string) => string | undefined,
): ConnectionRuns {
  return {
    on(connection, teamId) {
      const api = () => clients.api(connection, keyOf(teamId));
      return {
        startRun: async (...call) => (await api()).startRun(...call),
        followUp: async (...call) => (await api()).followUp(...call),
        getRunStatus: async (...call) => (await api()).getRunStatus(...call),
        submitFeedback: async (...call) => (await api()).submitFeedback(...call),
      };
    },
  };
}
