/** The service connections an admin's App Home lists, with their `/v2/whoami` health (DESIGN "Many accounts"). */
import type { IdentityProblem } from '../agent-api/index.js';
import type { Tenant } from '../conversation/tenancy.js';

/** A connection's row in the home. */
export interface ConnectionStatus {
  alias: string;
  /** The region address (host only: never a path or a token). */
  host: string;
  /** The account the token belongs to, when whoami answered. */
  account?: { id: number; name: string } | undefined;
  health: 'ok' | IdentityProblem;
}

/** Port: every connection of `tenant` with its health now (or as recently checked). */
export interface ServiceConnections {
  list(tenant: Tenant): Promise<ConnectionStatus[]>;
}

/** How long a health answer is reused. */
const HEALTH_CACHE_MS = 60_000;

/** A connection as the service-connections registry lists it (its `/agent connections` row). */
export type ListedConnection = { alias: string; region: string } & (
  | { health: 'ok'; accountId: number; accountName: string }
  | { health: 'failing'; problem: IdentityProblem; accountName?: string | undefined }
);

/**
 * The registry's connections (the default first) with their health, reused for a minute unless one
 * was added or removed meanwhile; with OAuth, kept per installation.
 */
export function registryConnections(deps: {
  list(tenant: Tenant): Promise<ListedConnection[]>;
  /** The added connections' aliases the tenant sees, read cheaply from the store (no service call). */
  aliases(tenant: Tenant): Promise<string[]>;
  now?: () => number;
}): ServiceConnections {
  const now = deps.now ?? Date.now;
  const cached = new Map<string, { at: number; aliases: string; statuses: ConnectionStatus[] }>();
  const statusOf = ({ alias, region: host, ...row }: ListedConnection): ConnectionStatus =>
    row.health === 'ok'
      ? { alias, host, account: { id: row.accountId, name: row.accountName }, health: 'ok' }
      : { alias, host, health: row.problem };
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
