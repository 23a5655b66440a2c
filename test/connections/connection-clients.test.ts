import { describe, expect, it } from 'vitest';
import type { AgentApi } from '../../src/agent-api/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import {
  accountKeyOf,
  type ConnectionSettings,
  createAgentApiFactory,
} from '../../src/connections/agent-api-factory.js';
import { addressOf } from '../../src/connections/connection-admin.js';
import { aliasProblem } from '../../src/connections/connection-alias.js';
import {
  ConnectionAddressRefusedError,
  createConnectionClients,
  UnknownConnectionError,
} from '../../src/connections/connection-clients.js';
import { connectionSealPlace, type StoredConnection } from '../../src/connections/connection-record.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { createSecretBox } from '../../src/secrets/secret-box.js';

const config = loadConfig({
  SLACK_BOT_TOKEN: 'xoxb-test-not-real',
  SLACK_SIGNING_SECRET: 'test-secret-not-real',
  AGENT_API_URL: 'http://127.0.0.1:9',
  AGENT_API_TOKEN: 'test-token-not-real',
  AGENT_ID: 'agent',
});
const box = createSecretBox(Buffer.alloc(32, 3));

function stored(
  alias: string,
  accountId: number,
  baseUrl = 'https://api-eu.logz.io',
  installation?: string,
): StoredConnection {
  return {
    alias,
    baseUrl,
    ...(installation !== undefined ? { installation } : {}),
    sealedToken: box.seal(`token-of-${alias}`, connectionSealPlace({ alias, installation })),
    accountId,
    accountName: 'A',
    addedBy: 'U1',
    addedAt: 0,
  };
}

describe('connection clients', () => {
  it('builds each alias once from its record (token opened), the default without the store', async () => {
    const records = new Map([['eu', stored('eu', 1)]]);
    let reads = 0;
    const made: string[] = [];
    const defaultApi = {} as AgentApi;
    const clients = createConnectionClients({
      defaultApi,
      records: {
        getConnection: async (alias) => {
          reads += 1;
          return records.get(alias);
        },
      },
      secrets: box,
      factory: {
        make: (connection) => {
          made.push(`${connection.alias}:${connection.token}`);
          return {} as AgentApi;
        },
      },
    });
    expect(await clients.api(undefined, undefined)).toBe(defaultApi);
    expect(await clients.api('default', undefined)).toBe(defaultApi);
    const eu = await clients.api('eu', undefined);
    expect(await clients.api('eu', undefined)).toBe(eu);
    expect(made).toEqual(['eu:token-of-eu']);
    expect(reads).toBe(1);
    await expect(clients.api('gone', undefined)).rejects.toBeInstanceOf(UnknownConnectionError);
    clients.forget('eu');
    expect(await clients.api('eu', undefined)).not.toBe(eu);
  });

  it('resolves an added alias only for the installation that added it (DESIGN "One installation, one tenant")', async () => {
    const records = new Map([['alpha', stored('alpha', 1, undefined, 'T0ALPHA')]]);
    const clients = createConnectionClients({
      defaultApi: {} as AgentApi,
      records: { getConnection: async (alias) => records.get(alias) },
      secrets: box,
      factory: { make: () => ({}) as AgentApi },
    });
    const alpha = await clients.api('alpha', 'T0ALPHA');
    await expect(clients.api('alpha', 'T0BETA')).rejects.toBeInstanceOf(UnknownConnectionError);
    await expect(clients.api('alpha', undefined)).rejects.toBeInstanceOf(UnknownConnectionError);
    expect(await clients.api('alpha', 'T0ALPHA')).toBe(alpha);
  });

  it('reads the record again after recheckMs: unchanged keeps the client, removed elsewhere fails', async () => {
    const records = new Map([['eu', stored('eu', 1)]]);
    let clock = 0;
    let built = 0;
    const clients = createConnectionClients({
      defaultApi: {} as AgentApi,
      records: { getConnection: async (alias) => records.get(alias) },
      secrets: box,
      factory: {
        make: () => {
          built += 1;
          return {} as AgentApi;
        },
      },
      recheckMs: 1000,
      now: () => clock,
    });
    const eu = await clients.api('eu', undefined);
    clock = 2000;
    expect(await clients.api('eu', undefined)).toBe(eu);
    records.set('eu', stored('eu', 1)); // added anew elsewhere: another sealed token
    clock = 4000;
    expect(await clients.api('eu', undefined)).not.toBe(eu);
    expect(built).toBe(2);
    records.delete('eu');
    clock = 6000;
    await expect(clients.api('eu', undefined)).rejects.toBeInstanceOf(UnknownConnectionError);
  });

  it('a stored address that is not a service address is refused at use: the token is not opened nor sent', async () => {
    const records = new Map([
      ['old', stored('old', 1, 'https://10.0.0.5')],
      ['listed', stored('listed', 2, 'https://logs-api.example.com')],
    ]);
    const made: string[] = [];
    const clients = createConnectionClients({
      defaultApi: {} as AgentApi,
      records: { getConnection: async (alias) => records.get(alias) },
      secrets: box,
      allowedHosts: ['logs-api.example.com'],
      factory: {
        make: (connection) => {
          made.push(connection.alias);
          return {} as AgentApi;
        },
      },
    });
    await expect(clients.api('old', undefined)).rejects.toBeInstanceOf(ConnectionAddressRefusedError);
    await clients.api('listed', undefined);
    expect(made).toEqual(['listed']);
  });

  it("a token copied into another connection's record does not open there (DESIGN: sealed values know their place)", async () => {
    const eu = stored('eu', 1);
    const records = new Map([
      ['eu', eu],
      // Another record with eu's sealed token pasted in (someone with write access to the store).
      ['us', { ...stored('us', 2), sealedToken: eu.sealedToken }],
      ['theirs', { ...stored('eu', 1), installation: 'T0OTHER' }],
    ]);
    const made: string[] = [];
    const clients = createConnectionClients({
      defaultApi: {} as AgentApi,
      records: { getConnection: async (alias) => records.get(alias) },
      secrets: box,
      factory: {
        make: (connection) => {
          made.push(`${connection.alias}:${connection.token}`);
          return {} as AgentApi;
        },
      },
    });
    await expect(clients.api('us', undefined)).rejects.toThrow(/integrity check/);
    // eu's record, sealed without an installation, moved under another installation's record.
    records.set('eu', { ...eu, installation: 'T0OTHER' });
    await expect(clients.api('eu', 'T0OTHER')).rejects.toThrow(/integrity check/);
    expect(made).toEqual([]);
  });

  it('a token sealed before record binding (v1) opens once and is sealed again for its record', async () => {
    const keyId = box.keyId;
    const { createCipheriv, randomBytes } = await import('node:crypto');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.alloc(32, 3), iv);
    cipher.setAAD(Buffer.from(`v1.${keyId}`));
    const body = Buffer.concat([cipher.update('old-token', 'utf8'), cipher.final()]);
    const legacy = [
      'v1',
      keyId,
      ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')),
    ].join('.');
    const records = new Map([['eu', { ...stored('eu', 1), sealedToken: legacy }]]);
    const made: string[] = [];
    const clients = createConnectionClients({
      defaultApi: {} as AgentApi,
      records: {
        getConnection: async (alias) => records.get(alias),
        saveConnection: async (connection) => {
          records.set(connection.alias, connection);
        },
      },
      secrets: box,
      factory: {
        make: (connection) => {
          made.push(`${connection.alias}:${connection.token}`);
          return {} as AgentApi;
        },
      },
    });
    await clients.api('eu', undefined);
    expect(made).toEqual(['eu:old-token']);
    const resealed = records.get('eu')?.sealedToken ?? '';
    expect(resealed.startsWith(`v2.${keyId}.`)).toBe(true);
    expect(box.open(resealed, connectionSealPlace({ alias: 'eu', installation: undefined }))).toBe(
      'old-token',
    );
    expect(() => box.open(resealed, connectionSealPlace({ alias: 'us', installation: undefined }))).toThrow();
  });

  it('one request budget per account: shared by two aliases of one account, separate otherwise', () => {
    const factory = createAgentApiFactory({ agent: config.agent, logger: silentLogger });
    const settings = (alias: string, accountId?: number) => ({
      alias,
      baseUrl: 'https://api-eu.example.com',
      token: 't',
      accountId,
    });
    expect(factory.budgetFor(settings('a', 1))).toBe(factory.budgetFor(settings('b', 1)));
    expect(factory.budgetFor(settings('a', 1))).not.toBe(factory.budgetFor(settings('c', 2)));
    expect(factory.budgetFor(settings('default'))).not.toBe(factory.budgetFor(settings('a', 1)));
    expect(factory.budgetFor(settings('c', 2)).limit).toBe(config.agent.maxInFlight);
  });

  // The key lands in the store, shared by replicas (budget/account-budgets.ts): never a token.
  it('keys an account by its address and account id (or the alias until whoami), never the token', () => {
    const token = 'secret-token-not-real';
    const connection = (changes: Partial<ConnectionSettings>): ConnectionSettings => ({
      alias: 'default',
      baseUrl: 'https://api.example.test',
      token,
      ...changes,
    });
    const keys = [
      accountKeyOf(connection({ accountId: 1234 })),
      accountKeyOf(connection({ accountId: 1234, baseUrl: 'https://api-eu.example.test' })),
      accountKeyOf(connection({})),
      accountKeyOf(connection({ alias: 'eu-prod', baseUrl: 'https://api-eu.example.test' })),
    ];
    for (const key of keys) expect(key).not.toContain(token);
    // One account id on two regional hosts is two accounts; every key here is different.
    expect(new Set(keys).size).toBe(keys.length);
    // Another token of the same account shares the account's budget.
    expect(accountKeyOf(connection({ accountId: 1234, token: 'other-token-not-real' }))).toBe(keys[0]);
  });
});

describe('connection input rules', () => {
  it.each([
    ['eu-prod', undefined],
    ['a', undefined],
    ['x'.repeat(32), undefined],
    ['x'.repeat(33), /at most 32/],
    ['eu prod', /without spaces/],
    ['-eu', /is not an alias/],
    ['EU', /is not an alias/],
    ['', /empty/],
  ])('alias %j', (alias, problem) => {
    const found = aliasProblem(alias);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it.each([
    ['api-eu.logz.io', 'https://api-eu.logz.io'],
    ['https://api-eu.logz.io/', 'https://api-eu.logz.io'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('address %s → %s', (address, url) => {
    expect(addressOf(address)).toBe(url);
  });

  it.each([
    ['', /empty/],
    ['not a host', /not a URL or host name/],
    ['https://', /not a URL or host name/],
    ['localhostish', /not a full host name/],
    ['ftp://api.example.com', /not an http\(s\) address/],
    ['http://api.example.com', /clear text/],
    // DESIGN "Service addresses": only the regional API hosts, loopback or CONNECTION_ALLOWED_HOSTS.
    [
      'https://api.example.com',
      /not one of the agent service's regional API hosts.*CONNECTION_ALLOWED_HOSTS/,
    ],
    ['https://10.0.0.5', /not one of the agent service's regional API hosts/],
    ['https://192.168.1.20:8443', /not one of the agent service's regional API hosts/],
    ['https://169.254.169.254', /not one of the agent service's regional API hosts/],
    ['https://[fd00::1]', /not a full host name|regional API hosts/],
    ['https://api.logz.io.evil.example', /not one of the agent service's regional API hosts/],
    ['https://user:secret@api.logz.io', /without a user name or password/],
  ])('address %j is refused', (address, problem) => {
    const result = addressOf(address);
    expect(typeof result).toBe('object');
    expect((result as { problem: string }).problem).toMatch(problem);
  });

  it.each([
    'api.logz.io',
    'api-eu.logz.io',
    'api-uk.logz.io',
    'api-au.logz.io',
    'api-ca.logz.io',
    'api-nl.logz.io',
    'API-WA.logz.io',
    'https://localhost:8443',
    'http://[::1]:9000',
    'http://127.0.0.2:9000',
  ])('address %s is a service address', (address) => {
    expect(typeof addressOf(address)).toBe('string');
  });

  it('a host in CONNECTION_ALLOWED_HOSTS is accepted over https only', () => {
    expect(addressOf('logs-api.example.com', ['logs-api.example.com'])).toBe('https://logs-api.example.com');
    expect(addressOf('http://logs-api.example.com', ['logs-api.example.com'])).toMatchObject({
      problem: expect.stringMatching(/clear text/),
    });
    expect(addressOf('other.example.com', ['logs-api.example.com'])).toMatchObject({
      problem: expect.stringMatching(/regional API hosts/),
    });
  });
});
