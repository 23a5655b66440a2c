import type { SubAccount } from '../../src/agent-api/index.js';
import { createAdminCheck } from '../../src/commands/access.js';
import type { CommandContext, CommandsApi } from '../../src/commands/command-context.js';
import { parseCommand, runAgentCommand } from '../../src/commands/registry.js';
import { createChannelAgents } from '../../src/conversation/context/channel-agents.js';
import type { Logger } from '../../src/runtime/logger.js';
import { createMemoryStore } from '../../src/store/index.js';

/** What the subcommand tests share: an in-memory service, a capturing logger, a command context. */

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
export function fakeApi() {
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

export function capture(): { logger: Logger; lines: string[] } {
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

/** A home installation's context with UADMIN as the listed admin; `run` parses and runs like the listener. */
export function setup(overrides: Partial<CommandContext> = {}) {
  const { api, calls } = fakeApi();
  const { logger, lines } = capture();
  const store = createMemoryStore();
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
    channelAgents: createChannelAgents({ store, defaultAgentId: 'agent-default', now: () => 42 }),
    capacityLock: () => ({ acquire: async () => true, release: async () => {} }),
    sendFilesToUser: async (userId, files) => {
      uploads.push({ userId, names: files.map((f) => f.filename), contents: files.map((f) => f.content) });
    },
    newReferenceId: () => 'ref00001',
    now: () => new Date('2025-01-31T23:59:00Z'),
    logger,
    ...overrides,
  };
  const run = (text: string, userId = 'UADMIN', channelId?: string) =>
    runAgentCommand(parseCommand(text), { userId, channelId }, context);
  return { run, calls, lines, uploads, store, context };
}

/** The parse error of `text` (fails the test when it parses). */
export function parseError(text: string) {
  const parsed = parseCommand(text);
  if (parsed.ok) throw new Error(`${text} parsed as ${JSON.stringify(parsed.command)}`);
  return parsed;
}
