import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_ADMIN_EMAILS, SIM_AGENTS, SIM_TOKENS } from '../../dev/simulator/index.js';
import type { StoredResponse } from '../../dev/slack-standin/index.js';
import { HELP_ENTRIES } from '../../src/commands/help-text.js';
import type { Logger } from '../../src/runtime/logger.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * `/agent` end to end: the real bot, signed slash commands over HTTP, the simulator as the
 * agent service and the Slack stand-in; assertions on what they recorded.
 */

/** Every line the bot logged, with fields serialised (errors expanded), to search for secrets. */
function capturingLogger(lines: string[]): Logger {
  const expand = (_key: string, value: unknown) =>
    value instanceof Error
      ? { ...value, message: value.message, stack: value.stack, cause: value.cause }
      : value;
  const record = (level: string) => (fields: object, message?: string) => {
    lines.push(`${level} ${message ?? ''} ${JSON.stringify(fields, expand)}`);
  };
  const logger: Logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: () => logger,
  };
  return logger;
}

/** What a person reads in a reply: the blocks' mrkdwn with Slack's escapes undone. */
function readable(reply: StoredResponse): string {
  const blocks = reply.blocks?.map((block) => (block.text as { text?: string } | undefined)?.text ?? '');
  const text = blocks?.join('\n') ?? reply.text ?? '';
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Runs a command and waits for its response_url reply. */
async function run(harness: Harness, text: string, user = 'UADMINLIST', channel = 'C0GENERAL') {
  const posted = await harness.command(text, { user, channel });
  expect(posted.status).toBe(200);
  expect(posted.ms).toBeLessThan(3_000);
  const replies = await harness.slack.waitFor(
    () => {
      const list = harness.slack.responses(posted.responseId);
      return list.length > 0 ? list : undefined;
    },
    { timeoutMs: 10_000, description: `the reply to /agent ${text}` },
  );
  const reply = replies[0] as NonNullable<(typeof replies)[number]>;
  return { posted, reply, text: readable(reply) };
}

/** POSTs to the simulator as a client of the service would (not through the bot's client). */
async function simCall(harness: Harness, path: string, token: string, body?: unknown, method = 'POST') {
  const response = await fetch(`${harness.sim.url}${path}`, {
    method,
    headers: { 'x-api-token': token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

const ACCOUNTS_PATH = '/account-management/time-based-accounts';

describe('/agent with the default configuration', () => {
  let harness: Harness;
  const logLines: string[] = [];

  beforeAll(async () => {
    harness = await startHarness({ logger: capturingLogger(logLines) });
    // The harness's ADMIN_USER_IDS person, so the bot can open a DM with them.
    harness.slack.addUser({ id: 'UADMINLIST' });
  });
  afterAll(async () => harness?.stop());
  beforeEach(() => harness.sim.reset());

  describe('help', () => {
    it('lists every subcommand with its description and example, for anyone', async () => {
      const { text, reply } = await run(harness, 'help', 'UALICE');
      expect(reply.response_type).toBe('ephemeral');
      for (const entry of HELP_ENTRIES) {
        expect(text).toContain(entry.usage);
        expect(text).toContain(entry.example);
      }
      expect(harness.sim.requests).toHaveLength(0);
    });

    it('answers an unknown subcommand, and no subcommand, with the help', async () => {
      const unknown = await run(harness, 'frobnicate now', 'UALICE');
      expect(unknown.text).toContain('`frobnicate` is not an `/agent` command');
      expect(unknown.text).toContain('/agent capacity move <GB> from <account> to <account>');
      const empty = await run(harness, '', 'UALICE');
      expect(empty.text).toContain('/agent whoami');
    });

    it('shows the usage line when a subcommand is malformed', async () => {
      const { text } = await run(harness, 'capacity move lots from A to B');
      expect(text).toContain('“lots” is not a number of GB');
      expect(text).toContain('Usage: `/agent capacity move <GB> from <account> to <account>`');
      expect(harness.sim.requests).toHaveLength(0);
    });
  });

  it('whoami names the account of the configured token, for anyone', async () => {
    const { text } = await run(harness, 'whoami', 'UBOB');
    expect(text).toBe('Connected to *Production* (account id 200001).');
  });

  describe('enable and disable', () => {
    it('disable and enable the configured agent and report the state the service returned', async () => {
      const off = await run(harness, 'disable');
      expect(off.text).toContain(`Agent \`${SIM_AGENTS.api}\` is now *disabled*`);
      expect(off.text).toContain('`active: false`');
      const on = await run(harness, 'enable');
      expect(on.text).toContain('is now *enabled*');
      expect(on.text).toContain('`active: true`');
      expect(harness.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `POST /v2/ai-agent/${SIM_AGENTS.api}/disable`,
        `POST /v2/ai-agent/${SIM_AGENTS.api}/enable`,
      ]);
    });

    it('act on a named agent', async () => {
      const { text } = await run(harness, `enable ${SIM_AGENTS.disabled}`);
      expect(text).toContain(`Agent \`${SIM_AGENTS.disabled}\` is now *enabled*`);
      expect(harness.sim.requests[0]?.path).toBe(`/v2/ai-agent/${SIM_AGENTS.disabled}/enable`);
    });

    it('say an id the service does not know is about the agent, not the address', async () => {
      const { text } = await run(harness, 'disable no-such-agent');
      expect(text).toContain("The agent service doesn't know the agent `no-such-agent` — check the agent id");
      expect(text).not.toContain('AGENT_API_URL');
    });
  });

  describe('accounts', () => {
    it('lists the accounts as a table and warns about accounts at 0 GB', async () => {
      const created = await simCall(harness, ACCOUNTS_PATH, SIM_TOKENS.main, {
        email: SIM_ADMIN_EMAILS[0],
        accountName: 'Empty One',
        retentionDays: 7,
        sharingObjectsAccounts: [],
      });
      expect(created.status).toBe(200);
      const { text } = await run(harness, 'accounts');
      expect(text).toContain('*Accounts* (the main account and 5 sub accounts)');
      expect(text).toMatch(/Sim Main Account \(main\)\s+100000\s+100 GB\s+30 d\s+searchable, accessible/);
      expect(text).toMatch(/Security\s+200003\s+uncapped\s+90 d\s+searchable, accessible, flexible/);
      expect(text).toMatch(
        /Production\s+200001\s+50 GB\s+30 d\s+searchable, accessible, doc-size, flexible, utilization/,
      );
      expect(text).toMatch(/QA Team\s+200004\s+8 GB\s+5 d\s+searchable, accessible, flexible/);
      expect(text).toMatch(/Staging\s+200002\s+20 GB\s+14 d\s+searchable, doc-size, utilization/);
      expect(text).toContain('the main account and uncapped accounts take no part');
      expect(text).toContain('*Empty One* (200005) is at 0 GB per day: it accepts no logs');
      expect(text).not.toContain('*Production* (200001) is at 0 GB');
      expect(text).not.toContain('*Security* (200003) is at 0 GB');
    });

    it('create replies with the id, shows the token only ephemerally and notes the 0 GB default', async () => {
      logLines.length = 0;
      const { text, reply } = await run(harness, `accounts create "Data Science" ${SIM_ADMIN_EMAILS[0]} 14`);
      const account = harness.sim.accounts().find((a) => a.accountName === 'Data Science');
      expect(account).toMatchObject({ retentionDays: 14, maxDailyGB: 0, email: SIM_ADMIN_EMAILS[0] });
      const token = account?.accountToken ?? 'missing';
      expect(text).toContain(`Created sub account *Data Science* (id ${account?.accountId})`);
      expect(text).toContain(`\`${token}\``);
      expect(text).toContain('max daily GB is 0 (the default)');
      expect(text).toContain('at least 1 GB');
      expect(reply.response_type).toBe('ephemeral');
      // Nowhere else: no channel or DM message, no chat.postEphemeral, no file, no log line.
      const everywhere = JSON.stringify([
        harness.slack.allMessages(),
        harness.slack.ephemerals(),
        harness.slack.files().map((f) => f.text),
        harness.slack.calls,
      ]);
      expect(everywhere).not.toContain(token);
      expect(
        logLines.some((line) => line.includes('admin command') && line.includes('accounts-create')),
      ).toBe(true);
      expect(logLines.join('\n')).not.toContain(token);
    });

    it('create with capacity has no 0 GB note', async () => {
      const { text } = await run(harness, `accounts create Ops ${SIM_ADMIN_EMAILS[1]} 7 2.5`);
      expect(harness.sim.accounts().find((a) => a.accountName === 'Ops')).toMatchObject({ maxDailyGB: 2.5 });
      expect(text).not.toContain('0 GB');
    });

    it('create reports the service refusing a non-admin email in one sentence', async () => {
      const { text } = await run(harness, 'accounts create Nope someone@example.com');
      expect(text).toMatch(/^The agent service rejected the request: “email must belong to an admin user/);
      expect(text).toMatch(/\(ref: [0-9a-f]{8}\)\.$/);
    });
  });

  describe('capacity move', () => {
    it('lowers the donor first, then raises the recipient, keeping every other field', async () => {
      const before = harness.sim.accounts();
      const { text } = await run(harness, 'capacity move 2.5 from production to "qa team"');
      expect(harness.sim.putLog.map((p) => p.accountId)).toEqual([200001, 200004]);
      const [donorPut, recipientPut] = harness.sim.putLog;
      // What the PUT carries: the listing minus ids, email, token, response-only fields and the
      // members it lists as null ("not set": the vendor's spec refuses null there), with the
      // undocumented members as they were listed.
      const strip = ({
        accountId: _i,
        email: _e,
        accountToken: _t,
        isOwner: _o,
        undocumented,
        ...rest
      }: (typeof before)[number]) =>
        Object.fromEntries(
          Object.entries({ ...rest, ...undocumented }).filter(([, value]) => value !== null),
        );
      const production = before.find((a) => a.accountId === 200001) as (typeof before)[number];
      const qa = before.find((a) => a.accountId === 200004) as (typeof before)[number];
      // Full replacement: every field the listing had (the seed's unnamed ones too), ids for sharing.
      expect(donorPut?.body).toEqual({ ...strip(production), maxDailyGB: 47.5 });
      expect(recipientPut?.body).toEqual({ ...strip(qa), maxDailyGB: 10.5 });
      const after = harness.sim.accounts();
      expect(after.find((a) => a.accountId === 200001)).toEqual({ ...production, maxDailyGB: 47.5 });
      expect(after.find((a) => a.accountId === 200004)).toEqual({ ...qa, maxDailyGB: 10.5 });
      expect(after.filter((a) => a.accountId !== 200001 && a.accountId !== 200004)).toEqual(
        before.filter((a) => a.accountId !== 200001 && a.accountId !== 200004),
      );
      expect(text).toContain('Moved 2.5 GB of daily capacity from *Production* to *QA Team*');
      expect(text).toContain('*Production* (200001): 50 GB → 47.5 GB');
      expect(text).toContain('*QA Team* (200004): 8 GB → 10.5 GB');
    });

    it.each([
      [
        'an unknown account',
        'capacity move 1 from Nowhere to 200004',
        'No account has the id or name “Nowhere” — `/agent accounts` lists them',
      ],
      [
        'the main account as donor',
        'capacity move 1 from "Sim Main Account" to 200004',
        'Sim Main Account (100000) is the main account: its capacity is not moved by this command',
      ],
      [
        'the main account as recipient',
        'capacity move 1 from 200001 to 100000',
        'Sim Main Account (100000) is the main account',
      ],
      [
        'an uncapped donor',
        'capacity move 1 from security to "QA Team"',
        'Security (200003) is uncapped (flexible, no daily limit): it has no capacity to give or take',
      ],
      ['an uncapped recipient', 'capacity move 1 from "QA Team" to 200003', 'Security (200003) is uncapped'],
      ['the same account', 'capacity move 1 from 200001 to Production', 'are the same account'],
      [
        'more than the donor has',
        'capacity move 8.5 from "QA Team" to 200001',
        'QA Team has 8 GB, fewer than the 8.5 GB',
      ],
      ['zero', 'capacity move 0 from 200001 to 200004', 'must be a positive number of GB'],
      ['a negative amount', 'capacity move -2 from 200001 to 200004', 'must be a positive number of GB'],
    ])('refuses %s without any PUT', async (_name, command, expected) => {
      const before = harness.sim.accounts();
      const { text } = await run(harness, command);
      expect(text).toContain(expected);
      expect(text).toContain('Nothing was changed.');
      expect(harness.sim.putLog).toEqual([]);
      expect(harness.sim.accounts()).toEqual(before);
    });

    it('refuses an ambiguous name with the candidates, without any PUT', async () => {
      const created = await simCall(harness, ACCOUNTS_PATH, SIM_TOKENS.main, {
        email: SIM_ADMIN_EMAILS[0],
        accountName: 'staging',
        retentionDays: 3,
        sharingObjectsAccounts: [],
      });
      const id = (created.json as { accountId: number }).accountId;
      const { text } = await run(harness, 'capacity move 1 from STAGING to 200001');
      expect(text).toContain(
        `“STAGING” names more than one account: Staging (200002), staging (${id}). Use the id instead. Nothing was changed.`,
      );
      expect(harness.sim.putLog).toEqual([]);
    });

    const gbOf = (id: number) => harness.sim.accounts().find((a) => a.accountId === id)?.maxDailyGB;
    const putsOf = () =>
      harness.sim.putLog.map((p) => [p.accountId, (p.body as { maxDailyGB: number }).maxDailyGB]);

    it('after a failed raise, re-reads, restores the donor and reports what it read', async () => {
      harness.sim.faults.failPutForAccount = 200004;
      const { text } = await run(harness, 'capacity move 5 from 200001 to 200004');
      expect(putsOf()[0]).toEqual([200001, 45]);
      expect(
        putsOf()
          .slice(1, -1)
          .every(([id]) => id === 200004),
      ).toBe(true);
      expect(putsOf().at(-1)).toEqual([200001, 50]);
      expect([gbOf(200001), gbOf(200004)]).toEqual([50, 8]);
      expect(text).toMatch(
        /^The capacity move failed: The agent service answered with an unexpected error \(HTTP 500\)/,
      );
      expect(text).toContain('Simulated failure updating account 200004');
      expect(text).toContain(
        'The accounts as read back afterwards (before → now):\n• *Production* (200001): 50 GB → 50 GB\n• *QA Team* (200004): 8 GB → 8 GB',
      );
      expect(text).toMatch(/\*Production\* was put back to 50 GB\.$/);
    });

    it('a raise that failed after the service applied it is a completed move, not a restore', async () => {
      harness.sim.faults.failPutAfterApplyForAccount = 200004;
      const { text } = await run(harness, 'capacity move 5 from 200001 to 200004');
      expect(putsOf()).toEqual([
        [200001, 45],
        [200004, 13],
      ]);
      expect([gbOf(200001), gbOf(200004)]).toEqual([45, 13]);
      expect(text).toContain('Moved 5 GB of daily capacity from *Production* to *QA Team*');
    });

    it('a lowering that failed without effect: says nothing changed because it read so', async () => {
      harness.sim.faults.failPutForAccount = 200001;
      const { text } = await run(harness, 'capacity move 5 from 200001 to 200004');
      expect(putsOf().every(([id]) => id === 200001)).toBe(true);
      expect(text).toContain('• *Production* (200001): 50 GB → 50 GB\n• *QA Team* (200004): 8 GB → 8 GB');
      expect(text).toMatch(/Nothing changed\.$/);
      expect(text).not.toContain('put back');
    });

    it('when the re-read fails too, changes nothing more and says which values are unknown', async () => {
      harness.sim.faults.failPutForAccount = 200004;
      harness.sim.faults.failListingsAfter = 1;
      const { text } = await run(harness, 'capacity move 5 from 200001 to 200004');
      expect(putsOf().filter(([id]) => id === 200001)).toEqual([[200001, 45]]);
      expect(gbOf(200001)).toBe(45);
      expect(text).toContain(
        'does not know their current values:\n• *Production* (200001): 50 GB or 45 GB\n• *QA Team* (200004): 8 GB or 13 GB',
      );
      expect(text).toContain('Check them with `/agent accounts`');
      expect(text).not.toMatch(/Nothing changed|put back|restored/);
    });
  });

  describe('export', () => {
    const exportedBy = async (type: string) =>
      (await simCall(harness, '/kibana/export', SIM_TOKENS.agent, { type })).json;

    it('uploads the service response as a JSON file to the admin in a DM', async () => {
      const filesBefore = harness.slack.files().length;
      const { text, posted } = await run(harness, 'export dashboard');
      expect(posted.body).toContain('Working on it');
      const exports = harness.sim.requests.filter((r) => r.path === '/kibana/export');
      expect(exports).toHaveLength(1);
      const files = harness.slack.files().slice(filesBefore);
      expect(files).toHaveLength(1);
      const [file] = files;
      expect(file?.name).toMatch(/^dashboard-export-\d{4}-\d{2}-\d{2}\.json$/);
      expect(file?.channel).toMatch(/^D/);
      expect(JSON.parse(file?.text ?? 'null')).toEqual(await exportedBy('dashboard'));
      const dm = harness.slack.messages(file?.channel ?? '');
      expect(dm.some((m) => m.files?.some((f) => f.id === file?.id))).toBe(true);
      expect(harness.slack.messages('C0GENERAL').some((m) => m.files)).toBe(false);
      expect(text).toContain('the files are in your direct messages');
      expect(text).toMatch(/dashboard: \d+ saved objects? \(`dashboard-export-/);
    });

    it('all makes one request per type and uploads three files', async () => {
      const filesBefore = harness.slack.files().length;
      const { text } = await run(harness, 'export all');
      expect(harness.sim.requests.filter((r) => r.path === '/kibana/export')).toHaveLength(3);
      const files = harness.slack.files().slice(filesBefore);
      expect(files.map((f) => f.name.split('-export-')[0]).sort()).toEqual([
        'dashboard',
        'search',
        'visualization',
      ]);
      for (const file of files) {
        const type = file.name.split('-export-')[0] ?? '';
        expect(JSON.parse(file.text)).toEqual(await exportedBy(type));
        expect(text).toContain(`${type}: `);
      }
    });
  });

  describe('access', () => {
    it.each([
      ['enable'],
      ['disable some-agent'],
      ['accounts'],
      [`accounts create X ${SIM_ADMIN_EMAILS[0]}`],
      ['capacity move 1 from 200001 to 200004'],
      ['export all'],
      ['capacity move nonsense'],
    ])('refuses "%s" from a member and calls nothing on the service', async (command) => {
      const { text } = await run(harness, command, 'UALICE');
      expect(text).toMatch(
        /^Only admins \(Slack workspace admins and owners, and \(in the home workspaces\) people in ADMIN_USER_IDS\) can run `\/agent /,
      );
      expect(harness.sim.requests).toEqual([]);
      expect(harness.sim.putLog).toEqual([]);
    });

    it('lets Slack workspace admins and owners in (users.info, cached)', async () => {
      const lookups = () =>
        harness.slack.calls.filter((c) => c.method === 'users.info' && c.args.user === 'UADMIN');
      const first = await run(harness, 'accounts', 'UADMIN');
      expect(first.text).toContain('*Accounts*');
      expect(lookups()).toHaveLength(1);
      await run(harness, 'accounts', 'UADMIN');
      expect(lookups()).toHaveLength(1);
      const owner = await run(harness, 'enable', 'UOWNER');
      expect(owner.text).toContain('is now *enabled*');
    });

    it('logs who ran which admin command and the result', async () => {
      logLines.length = 0;
      await run(harness, 'accounts', 'UBOB');
      await run(harness, 'disable');
      const audit = logLines.filter((line) => line.includes('admin command'));
      expect(audit).toHaveLength(2);
      expect(audit[0]).toMatch(/"user":"UBOB".*"subcommand":"accounts".*"result":"refused"/);
      expect(audit[1]).toMatch(/"user":"UADMINLIST".*"subcommand":"disable".*"result":"ok"/);
    });

    it('answers in a channel the bot is not a member of (through response_url)', async () => {
      harness.slack.setNotInChannel('C0PRIVATE');
      const { text } = await run(harness, 'whoami', 'UALICE', 'C0PRIVATE');
      expect(text).toContain('Connected to');
    });
  });
});

describe('/agent with other configurations', () => {
  it('whoami says an invalid token is invalid ("Insufficient privileges") when it is revoked after start-up', async () => {
    const harness = await startHarness();
    try {
      harness.sim.faults.agentTokenAs = 'invalid';
      const { text } = await run(harness, 'whoami');
      expect(text).toContain(
        "The bot's token is invalid: the agent service answered 403 “Insufficient privileges”",
      );
      expect(text).toContain('AGENT_API_TOKEN');
    } finally {
      await harness.stop();
    }
  });

  it('whoami names both regions on a region mismatch', async () => {
    const harness = await startHarness();
    try {
      harness.sim.faults.agentTokenAs = 'otherRegion';
      const { text } = await run(harness, 'whoami');
      expect(text).toContain('region eu-central-1 but the bot talks to us-east-1');
    } finally {
      await harness.stop();
    }
  });

  it.each([404, 405, 500])(
    'whoami says the address or path is wrong on any other non-200 (HTTP %i)',
    async (status) => {
      // The service at start-up; then the address answers like something else.
      let identityAnswers = 0;
      const changing: Server = createServer((_req, res) => {
        identityAnswers += 1;
        if (identityAnswers === 1) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ accountId: 1, accountName: 'Start-up' }));
        } else res.writeHead(status).end('<html>Not the service</html>');
      });
      await new Promise<void>((resolve) => changing.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(changing.address() as AddressInfo).port}/wrong`;
      const harness = await startHarness({ env: { AGENT_API_URL: url } });
      try {
        const { text } = await run(harness, 'whoami');
        expect(text).toContain(`The identity check got HTTP ${status}: the API address or path is wrong`);
        expect(text).toContain('AGENT_API_URL');
      } finally {
        await harness.stop();
        await new Promise<void>((resolve) => changing.close(() => resolve()));
      }
    },
  );

  it('account commands without ACCOUNT_API_TOKEN say they are not configured', async () => {
    const harness = await startHarness({ env: { ACCOUNT_API_TOKEN: '' } });
    try {
      harness.sim.reset(); // forget the start-up identity check
      for (const command of [
        'accounts',
        `accounts create X ${SIM_ADMIN_EMAILS[0]}`,
        'capacity move 1 from 1 to 2',
      ]) {
        const { text } = await run(harness, command);
        expect(text).toContain('Account commands are not configured');
      }
      expect(harness.sim.requests).toEqual([]);
    } finally {
      await harness.stop();
    }
  });
});
