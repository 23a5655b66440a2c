/** Admins' service connections (DESIGN "Many accounts"): the token is never in a result or a log. */
import { randomBytes } from 'node:crypto';
import { type AgentApi, type Identity, type IdentityProblem, identityProblem } from '../agent-api/index.js';
import { channelOfName, type Tenant } from '../conversation/tenancy.js';
import type { Logger } from '../runtime/logger.js';
import { aliasProblem, DEFAULT_CONNECTION } from './connection-alias.js';
import type { ConnectionAccess, ConnectionClients } from './connection-clients.js';
import {
  type ConnectionRecordStore,
  connectionSealPlace,
  type StoredConnection,
} from './connection-record.js';
import { addressOf, regionOf } from './connection-region.js';

export { addressOf } from './connection-region.js';

/** What the add form sends. */
export interface ConnectionInput {
  alias: string;
  /** A URL or a bare host, as AGENT_API_URL. */
  address: string;
  token: string;
}

/** The form field a refusal belongs to. */
export type ConnectionField = 'alias' | 'address' | 'token';

/** A failed identity check; `referenceId` is also in the log line with the error's details. */
type CheckFailure = { problem: IdentityProblem; error: unknown; referenceId: string };

export type AddResult =
  | { ok: true; alias: string; accountId: number; accountName: string; region: string }
  /** Nothing is kept without STATE_ENCRYPTION_KEY. */
  | { ok: false; reason: 'no-key' }
  | { ok: false; reason: 'invalid'; field: ConnectionField; problem: string }
  /** The identity check failed: the token, the address, or the service. */
  | ({ ok: false; reason: 'check-failed'; field: ConnectionField } & CheckFailure);

/** One row of `/agent connections`: a failing connection is one failing row, never a failed listing. */
export type ConnectionRow = { alias: string; region: string; source: 'environment' | 'added' } & (
  | { health: 'ok'; accountId: number; accountName: string }
  | ({ health: 'failing'; accountName?: string | undefined } & CheckFailure)
);

export type RemoveResult =
  | { outcome: 'removed' | 'unknown' | 'default'; alias: string }
  | { outcome: 'in-use'; alias: string; channels: string[] };

/** A connection `tenant`'s admins may see, bind, use and remove: the ones its admins added. */
const visibleTo =
  (tenant: Tenant) =>
  (connection: StoredConnection | undefined): connection is StoredConnection =>
    connection !== undefined && connection.installation === tenant.key;

/** The add form's values, trimmed and normalised, or the field that is wrong and why. */
async function validateForm(
  input: ConnectionInput,
  tenant: Tenant,
  records: ConnectionRecordStore,
  allowedHosts: readonly string[] | undefined,
): Promise<{ alias: string; baseUrl: string; token: string } | { field: ConnectionField; problem: string }> {
  const alias = input.alias.trim();
  const aliasWrong = aliasProblem(alias);
  if (aliasWrong) return { field: 'alias', problem: aliasWrong };
  if (alias === DEFAULT_CONNECTION) {
    const problem = '“default” is the connection set by AGENT_API_URL; choose another alias';
    return { field: 'alias', problem };
  }
  const existing = await records.getConnection(alias);
  if (existing) {
    // Another installation's connection: say only that the alias is taken, nothing about it.
    const problem = visibleTo(tenant)(existing)
      ? `a connection “${alias}” exists; remove it first or choose another alias`
      : `the alias “${alias}” is taken; choose another`;
    return { field: 'alias', problem };
  }
  const baseUrl = addressOf(input.address.trim(), allowedHosts);
  if (typeof baseUrl !== 'string') return { field: 'address', problem: baseUrl.problem };
  const token = input.token.trim();
  if (token === '') return { field: 'token', problem: 'the token is empty' };
  if (!/^[\x21-\x7e]+$/.test(token)) {
    return { field: 'token', problem: 'a token is one word of visible characters (no spaces)' };
  }
  return { alias, baseUrl, token };
}

/** One row of the listing: whoami on the connection's client; a failure is logged with its reference id. */
async function checkedRow(
  row: Pick<ConnectionRow, 'alias' | 'source'> & { baseUrl: string; accountName?: string | undefined },
  api: () => Promise<AgentApi>,
  timeoutMs: number,
  logger: Logger,
): Promise<ConnectionRow> {
  const { alias, source, accountName } = row;
  const region = regionOf(row.baseUrl);
  try {
    const identity = await (await api()).whoami({ timeoutMs, retryLimit: 0 });
    return { alias, region, source, health: 'ok', ...identityOf(identity) };
  } catch (error) {
    const referenceId = newReferenceId();
    logger.warn({ connection: alias, err: error, referenceId }, 'connection check failed');
    const problem = identityProblem(error);
    return { referenceId, alias, region, source, health: 'failing', problem, error, accountName };
  }
}

type AdminDeps = ConnectionAccess & {
  records: ConnectionRecordStore;
  clients: ConnectionClients;
  /** AGENT_API_URL: the default connection's address. */
  defaultBaseUrl: string;
  /** How long one identity check may take (the add form must be answered within Slack's 3 s). */
  checkTimeoutMs: number;
  now: () => number;
  logger: Logger;
};

/** whoami at a new connection's address with its token, once, in the form's time; else the field to fix. */
async function checkNewConnection(
  connection: { alias: string; baseUrl: string; token: string },
  deps: Pick<AdminDeps, 'factory' | 'checkTimeoutMs' | 'logger'>,
): Promise<Pick<Identity, 'accountId' | 'accountName'> | Extract<AddResult, { reason: 'check-failed' }>> {
  try {
    const api = deps.factory.make(connection);
    return identityOf(await api.whoami({ timeoutMs: deps.checkTimeoutMs, retryLimit: 0 }));
  } catch (error) {
    const problem = identityProblem(error);
    const referenceId = newReferenceId();
    deps.logger.info(
      { connection: connection.alias, problem, err: error, referenceId },
      'connection check failed; nothing saved',
    );
    const field = problem === 'token-rejected' ? 'token' : 'address';
    return { ok: false, reason: 'check-failed', field, problem, error, referenceId };
  }
}

export function createConnectionAdmin(deps: AdminDeps) {
  const { records, clients, logger } = deps;

  /** Validates the form, asks whoami at the address with the token, and saves it sealed. */
  async function add(input: ConnectionInput, userId: string, tenant: Tenant): Promise<AddResult> {
    if (!deps.secrets) return { ok: false, reason: 'no-key' };
    const checked = await validateForm(input, tenant, records, deps.allowedHosts);
    if ('problem' in checked) return { ok: false, reason: 'invalid', ...checked };
    const { alias, baseUrl, token } = checked;
    const identity = await checkNewConnection(checked, deps);
    if ('reason' in identity) return identity;
    const owner = tenant.key;
    await records.saveConnection({
      alias,
      baseUrl,
      sealedToken: deps.secrets.seal(token, connectionSealPlace({ alias, installation: owner })),
      ...identity,
      addedBy: userId,
      addedAt: deps.now(),
      ...(owner !== undefined ? { installation: owner } : {}),
    });
    clients.forget(alias);
    return { ok: true, alias, ...identity, region: regionOf(baseUrl) };
  }

  /** `tenant`'s connections, the default first (home installations only), each checked with whoami. */
  async function list(tenant: Tenant): Promise<ConnectionRow[]> {
    const stored = (await records.listConnections()).filter(visibleTo(tenant));
    const fromEnv = {
      alias: DEFAULT_CONNECTION,
      baseUrl: deps.defaultBaseUrl,
      source: 'environment',
    } as const;
    const rows = [
      ...(tenant.home ? [fromEnv] : []),
      ...stored.map((each) => ({ ...each, source: 'added' as const })),
    ];
    const check = (row: (typeof rows)[number]) =>
      checkedRow(row, () => clients.api(row.alias, tenant.key), deps.checkTimeoutMs, logger);
    return Promise.all(rows.map(check));
  }

  /** Removes a connection no channel uses; the default one cannot be removed. */
  async function remove(alias: string, tenant: Tenant): Promise<RemoveResult> {
    if (alias === DEFAULT_CONNECTION) return { outcome: 'default', alias };
    if (!visibleTo(tenant)(await records.getConnection(alias))) return { outcome: 'unknown', alias };
    // Channels are kept under their installation's name (tenancy.ts): shown as Slack ids.
    const channels = (await records.channelsUsing(alias)).map(channelOfName);
    if (channels.length > 0) return { outcome: 'in-use', alias, channels };
    await records.deleteConnection(alias);
    clients.forget(alias);
    return { outcome: 'removed', alias };
  }

  /** Whether `alias` names a connection of `tenant` (the default one: home installations only). */
  async function exists(alias: string, tenant: Tenant): Promise<boolean> {
    if (alias === DEFAULT_CONNECTION) return tenant.home;
    return visibleTo(tenant)(await records.getConnection(alias));
  }

  /** The added connections' aliases `tenant` sees, from the store alone (no service call). */
  async function aliases(tenant: Tenant): Promise<string[]> {
    return (await records.listConnections()).filter(visibleTo(tenant)).map((connection) => connection.alias);
  }

  return { add, list, remove, exists, aliases, canAdd: () => deps.secrets !== undefined };
}

export type ConnectionAdmin = ReturnType<typeof createConnectionAdmin>;

/** 8 hex characters, as the other reference ids a person quotes to an admin. */
const newReferenceId = () => randomBytes(4).toString('hex');

const identityOf = ({ accountId, accountName }: Identity) => ({ accountId, accountName });
