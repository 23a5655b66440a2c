/**
 * The service connections an admin's App Home lists with their health. Today one: the default
 * connection (`AGENT_API_*`), judged by `/v2/whoami`. A registry of more connections (DESIGN
 * "Many accounts") plugs in as another {@link ServiceConnections}; {@link combineConnections}
 * lists them all.
 */
import { type Identity, type IdentityProblem, identityProblem } from '../agent-api/index.js';
import type { Tenant } from '../conversation/tenancy.js';

export type ConnectionHealth = 'ok' | IdentityProblem;

export interface ConnectionStatus {
  alias: string;
  /** The region address (host only: never a path or a token). */
  host: string;
  /** The account the token belongs to, when whoami answered. */
  account?: { id: number; name: string } | undefined;
  health: ConnectionHealth;
}

/** Port: every connection of `tenant` with its health now (or as recently checked). */
export interface ServiceConnections {
  list(tenant: Tenant): Promise<ConnectionStatus[]>;
}

/** How long a health answer is reused: opening the home again does not call the service again. */
const HEALTH_CACHE_MS = 60_000;

/** The default connection, checked with whoami (bounded, cached for a minute). */
export function defaultConnection(deps: {
  baseUrl: string;
  whoami(options: { timeoutMs: number }): Promise<Identity>;
  now?: () => number;
  timeoutMs?: number;
}): ServiceConnections {
  const now = deps.now ?? Date.now;
  let cached: { at: number; status: ConnectionStatus } | undefined;
  const host = new URL(deps.baseUrl).host;

  async function check(): Promise<ConnectionStatus> {
    try {
      const identity = await deps.whoami({ timeoutMs: deps.timeoutMs ?? 5_000 });
      return {
        alias: 'default',
        host,
        account: { id: identity.accountId, name: identity.accountName },
        health: 'ok',
      };
    } catch (error) {
      return { alias: 'default', host, health: identityProblem(error) };
    }
  }

  return {
    async list() {
      if (!cached || now() - cached.at >= HEALTH_CACHE_MS) cached = { at: now(), status: await check() };
      return [cached.status];
    },
  };
}

/** Several sources of connections as one list, in order. */
export function combineConnections(...sources: ServiceConnections[]): ServiceConnections {
  return {
    async list(tenant) {
      return (await Promise.all(sources.map((source) => source.list(tenant)))).flat();
    },
  };
}

/** A connection as the service-connections registry lists it (its `/agent connections` row). */
export type ListedConnection = { alias: string; region: string } & (
  | { health: 'ok'; accountId: number; accountName: string }
  | { health: 'failing'; problem: IdentityProblem; accountName?: string | undefined }
);

/**
 * Every connection of the registry (the default one first), each checked with whoami by the
 * registry, the answers reused for a minute: opening the home again does not call the services
 * again. A connection added or removed meanwhile (`aliases` differ) is listed at once. With OAuth
 * each installation sees its own connections: answers are kept per `view`.
 */
export function registryConnections(deps: {
  list(tenant: Tenant): Promise<ListedConnection[]>;
  /** The added connections' aliases the tenant sees, read cheaply from the store (no service call). */
  aliases(tenant: Tenant): Promise<string[]>;
  now?: () => number;
}): ServiceConnections {
  const now = deps.now ?? Date.now;
  const cached = new Map<string, { at: number; aliases: string; statuses: ConnectionStatus[] }>();
  const statusOf = (row: ListedConnection): ConnectionStatus =>
    row.health === 'ok'
      ? {
          alias: row.alias,
          host: row.region,
          account: { id: row.accountId, name: row.accountName },
          health: 'ok',
        }
      : { alias: row.alias, host: row.region, health: row.problem };
  return {
    async list(tenant) {
      // Each installation's own answers: with one workspace there is one (key undefined).
      const view = `${tenant.key ?? ''}:${tenant.home}`;
      const aliases = (await deps.aliases(tenant)).sort().join('\n');
      for (const [key, entry] of cached) if (now() - entry.at >= HEALTH_CACHE_MS) cached.delete(key);
      const hit = cached.get(view);
      if (hit && hit.aliases === aliases) return hit.statuses;
      const statuses = (await deps.list(tenant)).map(statusOf);
      cached.set(view, { at: now(), aliases, statuses });
      return statuses;
    },
  };
}
