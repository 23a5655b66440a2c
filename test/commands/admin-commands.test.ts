import { describe, expect, it } from 'vitest';
import { AgentApiError, RegionMismatchError, type SubAccount } from '../../src/agent-api/index.js';
import type { CapacityMoveLock } from '../../src/capacity/index.js';
import { createAdminCheck } from '../../src/commands/access.js';
import {
  type CommandContext,
  type CommandsApi,
  runAgentCommand,
  whoamiProblem,
} from '../../src/commands/admin-commands.js';
import { exportFileName } from '../../src/commands/export-command.js';
import { parseCommand } from '../../src/commands/parse-command.js';
import { createChannelAgents } from '../../src/conversation/context/channel-agents.js';
import type { Logger } from '../../src/runtime/logger.js';
import { createMemoryStore } from '../../src/store/index.js';

const seeded = (): SubAccount[] => [
  {
    accountId: 1,
    accountName: 'Prod',
    email: null,
    maxDailyGB: 10,
    retentionDays: 7,
    searchable: true,
    accessible: true,
    docSizeSetting: false,
    sharingObjectsAccounts: [],
    utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
  },
  {
    accountId: 2,
    accountName: 'Dev',
    email: null,
    maxDailyGB: 1,
    retentionDays: 3,
    searchable: false,
    accessible: false,
    docSizeSetting: false,
    sharingObjectsAccounts: [],
    utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
  },
];

/** An in-memory agent service that records every call; for the branches the simulator cannot show. */
function fakeApi() {
  const calls: string[] = [];
  const accounts = seeded();
  /** Records the call, then answers. */
  const answer =
    <T>(name: string, value: () => T) =>
    async () => {
      calls.push(name);
      return value();
    };
  const api: CommandsApi = {
    whoami: answer('whoami', () => ({ accountId: 1, accountName: 'Prod' })),
    enableAgent: (id) => answer(`enable ${id}`, () => ({ id, active: true }))(),
    disableAgent: (id) => answer(`disable ${id}`, () => ({ id, active: false }))(),
    listSubAccounts: answer('list', () => structuredClone(accounts)),
    createSubAccount: answer('create', () => ({ accountId: 3, accountToken: 'secret-token-3' })),
    updateSubAccount: async (id, body) => {
      calls.push(`put ${id}`);
      Object.assign(accounts.find((a) => a.accountId === id) ?? {}, body);
    },
    exportSavedObjects: async (type) => {
      calls.push(`export ${type}`);
      const raw = `{"kibanaVersion":"7","hits":[],"extra":"${type}"}`;
      return { parsed: JSON.parse(raw), raw };
    },
  };
  return { api, calls };
}

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (f, m) => lines.push(`${m} ${JSON.stringify(f)}`),
    info: (f, m) => lines.push(`${m} ${JSON.stringify(f)}`),
    warn: (f, m) => lines.push(`${m} ${JSON.stringify(f)}`),
    error: (f, m) => lines.push(`${m} ${JSON.stringify(f)}`),
    child: () => logger,
  };
  return { logger, lines };
}

function setup(overrides: Partial<CommandContext> = {}) {
  const { api, calls } = fakeApi();
  const { logger, lines } = capture();
  const uploads: { userId: string; names: string[]; contents: string[] }[] = [];
  const context: CommandContext = {
    tenant: { teamId: 'T1', home: true, key: undefined },
    api,
    access: createAdminCheck({
      adminUserIds: ['UADMIN'],
      app: { teamId: 'T1' },
      lookupUser: async () => undefined,
    }),
    accountsConfigured: true,
    defaultAgentId: 'agent-default',
    channelAgents: createChannelAgents({
      store: createMemoryStore(),
      defaultAgentId: 'agent-default',
      now: () => 0,
    }),
    capacityLock: () => ({ acquire: async () => true, release: async () => {} }),
    sendFilesToUser: async (userId, files) => {
      uploads.push({ userId, names: files.map((f) => f.filename), contents: files.map((f) => f.content) });
    },
    newReferenceId: () => 'ref00001',
    now: () => new Date('2025-01-31T23:59:00Z'),
    logger,
    ...overrides,
  };
  const run = (text: string, userId = 'UADMIN') => runAgentCommand(parseCommand(text), { userId }, context);
  return { run, calls, lines, uploads };
}

describe('runAgentCommand', () => {
  it('enable without an id uses AGENT_ID', async () => {
    const { run, calls } = setup();
    expect(await run('enable')).toEqual({
      kind: 'agent-state',
      agentId: 'agent-default',
      requested: true,
      active: true,
    });
    expect(calls).toEqual(['enable agent-default']);
  });

  it.each(['enable', 'accounts', 'capacity move 1 from 1 to 2', 'export all', 'export nonsense'])(
    'refuses %j from a non-admin before any call, and logs the refusal',
    async (command) => {
      const { run, calls, lines } = setup();
      expect((await run(command, 'UMEMBER')).kind).toBe('refused');
      expect(calls).toEqual([]);
      expect(
        lines.filter((l) => l.includes('"result":"refused"') && l.includes('"user":"UMEMBER"')),
      ).toHaveLength(1);
    },
  );

  it('help, usage errors of public commands and whoami need no admin', async () => {
    const { run } = setup();
    expect((await run('whoami', 'UMEMBER')).kind).toBe('whoami');
    expect((await run('nonsense', 'UMEMBER')).kind).toBe('help');
  });

  it('says account commands are not configured without ACCOUNT_API_TOKEN, export still works', async () => {
    const { run, calls } = setup({ accountsConfigured: false });
    for (const command of ['accounts', 'accounts create a b@c.de', 'capacity move 1 from 1 to 2']) {
      expect((await run(command)).kind).toBe('not-configured');
    }
    expect(calls).toEqual([]);
    expect((await run('export search')).kind).toBe('exported');
  });

  it('never logs the token a create returns', async () => {
    const { run, lines } = setup();
    const outcome = await run('accounts create New admin@example.com');
    expect(outcome).toMatchObject({
      kind: 'account-created',
      accountToken: 'secret-token-3',
      maxDailyGBDefaulted: true,
    });
    expect(lines.join('\n')).toContain('"accountId":3');
    expect(lines.join('\n')).not.toContain('secret-token-3');
    expect(lines.join('\n')).not.toContain('admin@example.com');
  });

  it('refuses a move while another holds the lock, before any call', async () => {
    const busy: CapacityMoveLock = { acquire: async () => false, release: async () => {} };
    const { run, calls } = setup({ capacityLock: () => busy });
    const outcome = await run('capacity move 1 from 1 to 2');
    expect(outcome.kind === 'capacity-failed' && outcome.failure.reason).toBe('busy');
    expect(calls).toEqual([]);
  });

  it('exports the raw text, named by type and date, in one upload to the person', async () => {
    const { run, uploads, calls } = setup();
    const outcome = await run('export all');
    expect(calls).toEqual(['export search', 'export visualization', 'export dashboard']);
    expect(uploads).toEqual([
      {
        userId: 'UADMIN',
        names: [
          'search-export-2025-01-31.json',
          'visualization-export-2025-01-31.json',
          'dashboard-export-2025-01-31.json',
        ],
        contents: ['search', 'visualization', 'dashboard'].map(
          (t) => `{"kibanaVersion":"7","hits":[],"extra":"${t}"}`,
        ),
      },
    ]);
    expect(outcome).toMatchObject({ kind: 'exported', delivery: { ok: true }, failures: [] });
  });

  it('reports a failed upload with a reference id', async () => {
    const { run, lines } = setup({
      sendFilesToUser: async () => {
        throw new Error('not_in_channel');
      },
    });
    const outcome = await run('export search');
    expect(outcome).toMatchObject({ kind: 'exported', delivery: { ok: false, referenceId: 'ref00001' } });
    expect(lines.some((l) => l.includes('ref00001') && l.includes('export upload'))).toBe(true);
  });

  it('turns a service failure into an outcome with a logged reference id', async () => {
    const api = {
      ...fakeApi().api,
      listSubAccounts: () => Promise.reject(new AgentApiError('network', 'down')),
    };
    const { run, lines } = setup({ api });
    expect(await run('accounts')).toMatchObject({ kind: 'service-error', referenceId: 'ref00001' });
    expect(lines.some((l) => l.startsWith('agent command failed') && l.includes('ref00001'))).toBe(true);
    expect(lines.some((l) => l.includes('"result":"failed"') && l.includes('ref00001'))).toBe(true);
  });
});

describe('whoamiProblem', () => {
  it.each([
    ['403', new AgentApiError('token_rejected', 'x', { status: 403 }), 'invalid-token'],
    ['401', new AgentApiError('token_rejected', 'x', { status: 401 }), 'invalid-token'],
    ['404', new AgentApiError('unknown_endpoint', 'x', { status: 404 }), 'wrong-address'],
    ['500', new AgentApiError('http_error', 'x', { status: 500 }), 'wrong-address'],
    [
      'a 200 that is no identity',
      new AgentApiError('invalid_response', 'x', { status: 200 }),
      'wrong-address',
    ],
    ['region mismatch', new RegionMismatchError('us-east-1', 'eu-central-1', { status: 400 }), 'service'],
    ['503', new AgentApiError('maintenance', 'x', { status: 503 }), 'service'],
    ['network', new AgentApiError('network', 'x'), 'service'],
    ['not an API error', new Error('x'), 'service'],
  ])('%s', (_name, error, expected) => {
    expect(whoamiProblem(error)).toBe(expected);
  });
});

it('exportFileName uses the UTC date', () => {
  expect(exportFileName('search', new Date('2025-01-31T23:59:00Z'))).toBe('search-export-2025-01-31.json');
});
