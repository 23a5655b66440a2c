/** Admins' service connections (DESIGN "Many accounts"): the token is never in a result or a log. */
import { randomBytes } from 'node:crypto';
import { type Identity, type IdentityProblem, identityProblem } from '../agent-api/index.js';
import { isLoopbackHost, normaliseBaseUrl } from '../config/load-config.js';
import { channelOfName, type Tenant } from '../conversation/tenancy.js';
import type { Logger } from '../runtime/logger.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { AgentApiFactory } from './agent-api-factory.js';
import { aliasProblem, DEFAULT_CONNECTION } from './connection-alias.js';
import type { ConnectionClients } from './connection-clients.js';
import {
  type ConnectionRecordStore,
  connectionSealPlace,
  type StoredConnection,
} from './connection-record.js';
import { isAllowedServiceHost, REGIONAL_API_HOSTS, regionOf } from './connection-region.js';

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

export function createConnectionAdmin(deps: {
  records: ConnectionRecordStore;
  clients: ConnectionClients;
  factory: Pick<AgentApiFactory, 'make'>;
  /** Unset without STATE_ENCRYPTION_KEY: adding is then refused. */
  secrets: SecretBox | undefined;
  /** AGENT_API_URL: the default connection's address. */
  defaultBaseUrl: string;
  /** How long one identity check may take (the add form must be answered within Slack's 3 s). */
  checkTimeoutMs: number;
  now: () => number;
  logger: Logger;
  /** CONNECTION_ALLOWED_HOSTS: hosts besides the regional API hosts and loopback (lower case). */
  allowedHosts?: readonly string[] | undefined;
}) {
  const { records, clients, logger } = deps;

  /** A connection `tenant`'s admins may see, bind, use and remove: the ones its admins added. */
  const visible =
    (tenant: Tenant) =>
    (connection: StoredConnection | undefined): connection is StoredConnection =>
      connection !== undefined && connection.installation === tenant.key;

  /** Validates the form, asks whoami at the address with the token, and saves it sealed. */
  async function add(input: ConnectionInput, userId: string, tenant: Tenant): Promise<AddResult> {
    if (!deps.secrets) return { ok: false, reason: 'no-key' };
    const checked = await validate(input, tenant);
    if ('problem' in checked) return { ok: false, reason: 'invalid', ...checked };
    const { alias, baseUrl, token } = checked;
    let identity: Identity;
    try {
      const api = deps.factory.make({ alias, baseUrl, token });
      identity = await api.whoami({ timeoutMs: deps.checkTimeoutMs, retryLimit: 0 });
    } catch (error) {
      const problem = identityProblem(error);
      const referenceId = newReferenceId();
      logger.info(
        { connection: alias, problem, err: error, referenceId },
        'connection check failed; nothing saved',
      );
      const field = problem === 'token-rejected' ? 'token' : 'address';
      return { ok: false, reason: 'check-failed', field, problem, error, referenceId };
    }
    const owner = tenant.key;
    await records.saveConnection({
      alias,
      baseUrl,
      sealedToken: deps.secrets.seal(token, connectionSealPlace({ alias, installation: owner })),
      accountId: identity.accountId,
      accountName: identity.accountName,
      addedBy: userId,
      addedAt: deps.now(),
      ...(owner !== undefined ? { installation: owner } : {}),
    });
    clients.forget(alias);
    return { ok: true, alias, ...identityOf(identity), region: regionOf(baseUrl) };
  }

  async function validate(
    input: ConnectionInput,
    tenant: Tenant,
  ): Promise<
    { alias: string; baseUrl: string; token: string } | { field: ConnectionField; problem: string }
  > {
    const alias = input.alias.trim();
    const aliasWrong = aliasProblem(alias);
    if (aliasWrong) return { field: 'alias', problem: aliasWrong };
    if (alias === DEFAULT_CONNECTION) {
      return {
        field: 'alias',
        problem: '“default” is the connection set by AGENT_API_URL; choose another alias',
      };
    }
    const existing = await records.getConnection(alias);
    if (existing) {
      // Another installation's connection: say only that the alias is taken, nothing about it.
      const problem = visible(tenant)(existing)
        ? `a connection “${alias}” exists; remove it first or choose another alias`
        : `the alias “${alias}” is taken; choose another`;
      return { field: 'alias', problem };
    }
    const baseUrl = addressOf(input.address.trim(), deps.allowedHosts);
    if (typeof baseUrl !== 'string') return { field: 'address', problem: baseUrl.problem };
    const token = input.token.trim();
    if (token === '') return { field: 'token', problem: 'the token is empty' };
    if (!/^[\x21-\x7e]+$/.test(token)) {
      return { field: 'token', problem: 'a token is one word of visible characters (no spaces)' };
    }
    return { alias, baseUrl, token };
  }

  /** `tenant`'s connections, the default first (home installations only), each checked with whoami. */
  async function list(tenant: Tenant): Promise<ConnectionRow[]> {
    const stored = (await records.listConnections()).filter(visible(tenant));
    const rows = [
      ...(tenant.home ? [check(DEFAULT_CONNECTION, deps.defaultBaseUrl, 'environment', tenant)] : []),
      ...stored.map((connection) => check(connection.alias, connection.baseUrl, 'added', tenant, connection)),
    ];
    return Promise.all(rows);
  }

  async function check(
    alias: string,
    baseUrl: string,
    source: ConnectionRow['source'],
    tenant: Tenant,
    stored?: StoredConnection,
  ): Promise<ConnectionRow> {
    const region = regionOf(baseUrl);
    try {
      const api = await clients.api(alias, tenant.key);
      const identity = await api.whoami({ timeoutMs: deps.checkTimeoutMs, retryLimit: 0 });
      return { alias, region, source, health: 'ok', ...identityOf(identity) };
    } catch (error) {
      const referenceId = newReferenceId();
      logger.warn({ connection: alias, err: error, referenceId }, 'connection check failed');
      return {
        referenceId,
        alias,
        region,
        source,
        health: 'failing',
        problem: identityProblem(error),
        error,
        accountName: stored?.accountName,
      };
    }
  }

  /** Removes a connection no channel uses; the default one cannot be removed. */
  async function remove(alias: string, tenant: Tenant): Promise<RemoveResult> {
    if (alias === DEFAULT_CONNECTION) return { outcome: 'default', alias };
    if (!visible(tenant)(await records.getConnection(alias))) return { outcome: 'unknown', alias };
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
    return visible(tenant)(await records.getConnection(alias));
  }

  /** The added connections' aliases `tenant` sees, from the store alone (no service call). */
  async function aliases(tenant: Tenant): Promise<string[]> {
    return (await records.listConnections()).filter(visible(tenant)).map((connection) => connection.alias);
  }

  return { add, list, remove, exists, aliases, canAdd: () => deps.secrets !== undefined };
}

export type ConnectionAdmin = ReturnType<typeof createConnectionAdmin>;

/** 8 hex characters, as the other reference ids a person quotes to an admin. */
const newReferenceId = () => randomBytes(4).toString('hex');

const identityOf = ({ accountId, accountName }: Identity) => ({ accountId, accountName });

/** The address as AGENT_API_URL takes it, or its problem (DESIGN "Service addresses"). */
export function addressOf(
  address: string,
  allowedHosts: readonly string[] = [],
): string | { problem: string } {
  const shown = address.slice(0, 80);
  if (address === '') return { problem: 'the region address is empty' };
  if (/\s/.test(address)) return { problem: `“${shown}” is not a URL or host name (it has spaces)` };
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(address);
  } catch {
    return { problem: `“${shown}” is not a URL or host name (like api-eu.logz.io)` };
  }
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `“${shown}” is not an http(s) address` };
  }
  if (!url.hostname.includes('.') && !isLoopbackHost(url.hostname)) {
    return { problem: `“${shown}” is not a full host name (like api-eu.logz.io)` };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { problem: `${url.origin} would carry the token in clear text: use https://` };
  }
  if (url.username !== '' || url.password !== '') {
    return { problem: `“${url.host}”: give the address without a user name or password` };
  }
  if (!isAllowedServiceHost(url.hostname, allowedHosts)) {
    return {
      problem: `${url.hostname} is not one of the agent service's regional API hosts (${REGIONAL_API_HOSTS.join(', ')}); an operator can allow another host with CONNECTION_ALLOWED_HOSTS`,
    };
  }
  return baseUrl;
}
