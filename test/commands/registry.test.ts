import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent-api/index.js';
import { type CommandOutcome, parseCommand, SUBCOMMANDS } from '../../src/commands/registry.js';
import {
  escapeMrkdwn,
  renderAcknowledgement,
  renderCommandOutcome,
} from '../../src/slack/views/commands/index.js';
import { fakeApi, parseError, setup } from './command-harness.js';

/** What the registry does for every subcommand: pick the module, check access, audit. */
it('gives each first word to one subcommand, and each help line names a word of its own module', () => {
  const words = SUBCOMMANDS.flatMap((module) => module.words);
  expect(new Set(words).size).toBe(words.length);
  for (const module of SUBCOMMANDS) {
    for (const entry of module.help) expect(module.words).toContain(entry.usage.split(' ')[1]);
  }
});

describe('parseCommand', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP me', { kind: 'help' }],
    ['frobnicate', { kind: 'help', unknown: 'frobnicate' }],
    ['whoami', { kind: 'whoami' }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['capacity move 1 from "QA Team to prod', 'capacity-move'],
    ['accounts create "QA Team admin@example.com', 'accounts-create'],
    ['connections remove "eu', 'connections'],
    ['frobnicate "x', 'help'],
  ])('names the subcommand of %j when a quote is not closed', (text, subcommand) => {
    const result = parseError(text);
    expect(result.subcommand).toBe(subcommand);
    expect(result.problem).toBe('a quote is not closed');
    expect(result.usage).toMatch(/^\/agent /);
  });
});

describe('runAgentCommand', () => {
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
    expect(await run('channel bind x', 'UMEMBER')).toMatchObject({ kind: 'usage', usage: '/agent channel' });
  });

  it('says account commands are not configured without ACCOUNT_API_TOKEN, export still works', async () => {
    const { run, calls } = setup({ accountsConfigured: false });
    for (const command of ['accounts', 'accounts create a b@c.de', 'capacity move 1 from 1 to 2']) {
      expect((await run(command)).kind).toBe('not-configured');
    }
    expect(calls).toEqual([]);
    expect((await run('export search')).kind).toBe('exported');
  });

  it("keeps the operator's account commands to the home installations, sending nothing", async () => {
    const { run, calls } = setup({
      tenant: { teamId: 'T2', home: false, key: 'T2' },
      // That installation's own Slack admin.
      access: { isAdmin: async () => true },
    });
    for (const command of ['accounts', 'capacity move 1 from 1 to 2', 'export all']) {
      expect(await run(command)).toMatchObject({ kind: 'home-only' });
    }
    expect(calls).toEqual([]);
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

describe('replies any subcommand may end in', () => {
  it.each<[string, CommandOutcome, string]>([
    [
      'a refusal',
      { kind: 'refused', usage: '/agent accounts' },
      'Only admins (Slack workspace admins and owners, and (in the home workspaces) people in ADMIN_USER_IDS) can run `/agent accounts`. Nothing was changed.',
    ],
    [
      'a usage error',
      { kind: 'usage', problem: 'something is missing', usage: '/agent export <type>' },
      "That didn't work: something is missing.\n\nUsage: `/agent export &lt;type&gt;`",
    ],
    [
      'a service error',
      {
        kind: 'service-error',
        action: 'accounts',
        error: new AgentApiError('maintenance', 'x'),
        referenceId: 'abcd1234',
      },
      'The agent service is down for maintenance — please try again later (ref: abcd1234).',
    ],
  ])('%s', (_name, outcome, expected) => {
    expect(renderCommandOutcome(outcome).text).toBe(expected);
  });
});

describe('renderAcknowledgement', () => {
  it.each([
    ['export all', 'Working on it…'],
    ['capacity move 1 from a to b', 'Working on it…'],
    ['accounts', undefined],
    ['help', undefined],
    ['export nonsense', undefined],
  ])('%s', (command, expected) => {
    expect(renderAcknowledgement(parseCommand(command))).toBe(expected);
  });
});

it('escapeMrkdwn flattens, shortens and escapes untrusted text', () => {
  expect(escapeMrkdwn('a\n<b> & c', 100)).toBe('a &lt;b&gt; &amp; c');
  expect(escapeMrkdwn('x'.repeat(50), 10)).toHaveLength(10);
});
