import { describe, expect, it } from 'vitest';
import { AgentApiError, type SubAccount } from '../../src/agent-api/index.js';
import { CapacityMoveError, CapacityMoveReason } from '../../src/capacity/index.js';
import type { CommandOutcome } from '../../src/commands/command-outcome.js';
import { parseCommand } from '../../src/commands/parse-command.js';
import {
  escapeMrkdwn,
  renderAcknowledgement,
  renderCommandOutcome,
} from '../../src/slack/views/command-replies.js';

const account = (
  overrides: Partial<SubAccount> & { accountId: number; accountName: string },
): SubAccount => ({
  email: null,
  maxDailyGB: 10,
  retentionDays: 7,
  searchable: false,
  accessible: false,
  docSizeSetting: false,
  sharingObjectsAccounts: [],
  utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
  ...overrides,
});

const text = (outcome: CommandOutcome) => renderCommandOutcome(outcome).text;

describe('renderCommandOutcome', () => {
  it.each<[string, CommandOutcome, string]>([
    ['whoami', { kind: 'whoami', accountId: 7, accountName: 'Prod' }, 'Connected to *Prod* (account id 7).'],
    [
      'an enabled agent',
      { kind: 'agent-state', agentId: 'a1', requested: true, active: true },
      'Agent `a1` is now *enabled* (the service reports `active: true`).',
    ],
    [
      'a state other than the one asked for',
      { kind: 'agent-state', agentId: 'a1', requested: false, active: true },
      'Asked to disable agent `a1`, but the service reports `active: true`: it is *enabled*.',
    ],
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
    [
      'an invalid token on whoami',
      {
        kind: 'whoami-failed',
        problem: 'invalid-token',
        status: 403,
        serviceMessage: 'Insufficient privileges',
        error: new Error('x'),
        referenceId: 'r1',
      },
      "The bot's token is invalid: the agent service answered 403 “Insufficient privileges”. An admin needs to set a valid AGENT_API_TOKEN (ref: r1).",
    ],
    [
      'a capacity move',
      {
        kind: 'capacity-moved',
        gb: 0.1 + 0.2,
        result: {
          from: { accountId: 1, accountName: 'A', before: 5, after: 4.7 },
          to: { accountId: 2, accountName: 'B <x>', before: 1, after: 1.3 },
        },
      },
      'Moved 0.3 GB of daily capacity from *A* to *B &lt;x&gt;*.\n\n• *A* (1): 5 GB → 4.7 GB\n• *B &lt;x&gt;* (2): 1 GB → 1.3 GB',
    ],
  ])('%s', (_name, outcome, expected) => {
    expect(text(outcome)).toBe(expected);
  });

  it('renders the accounts as a code-block table with flags and a warning for 0 GB', () => {
    const reply = renderCommandOutcome({
      kind: 'accounts',
      accounts: [
        account({ accountId: 1, accountName: 'Prod', maxDailyGB: 50, retentionDays: 30, searchable: true }),
        account({ accountId: 2, accountName: 'Empty `x`', maxDailyGB: 0 }),
      ],
    });
    expect(reply.blocks).toHaveLength(3);
    expect(reply.blocks[1]?.text.text).toBe(
      [
        '```',
        'Name       ID  Max GB/day  Retention  Flags',
        'Prod       1   50 GB       30 d       searchable',
        "Empty 'x'  2   0 GB        7 d        —",
        '```',
      ].join('\n'),
    );
    expect(reply.blocks[2]?.text.text).toContain(
      ':warning: *Empty `x`* (2) is at 0 GB per day: it accepts no logs.',
    );
  });

  it('labels the main account, shows an uncapped account as uncapped, and says neither moves', () => {
    const reply = renderCommandOutcome({
      kind: 'accounts',
      accounts: [
        account({ accountId: 1, accountName: 'Main', maxDailyGB: 100, isOwner: true }),
        account({ accountId: 2, accountName: 'Sec', maxDailyGB: null, isFlexible: true }),
      ],
    });
    expect(reply.blocks[0]?.text.text).toBe('*Accounts* (the main account and 1 sub account)');
    expect(reply.blocks[1]?.text.text).toBe(
      [
        '```',
        'Name         ID  Max GB/day  Retention  Flags',
        'Main (main)  1   100 GB      7 d        —',
        'Sec          2   uncapped    7 d        flexible',
        '```',
      ].join('\n'),
    );
    expect(reply.text).toContain('the main account and uncapped accounts take no part');
    expect(reply.text).not.toContain(':warning:');
  });

  it('names a Consumption-plan account without a cap correctly, apart from uncapped flexible ones', () => {
    const reply = renderCommandOutcome({
      kind: 'accounts',
      accounts: [
        account({ accountId: 2, accountName: 'Sec', maxDailyGB: null, isFlexible: true }),
        account({ accountId: 3, accountName: 'Usage', maxDailyGB: null, isFlexible: false }),
      ],
    });
    expect(reply.blocks[1]?.text.text).toBe(
      [
        '```',
        'Name   ID  Max GB/day    Retention  Flags',
        'Sec    2   uncapped      7 d        flexible',
        'Usage  3   no daily cap  7 d        —',
        '```',
      ].join('\n'),
    );
    expect(reply.text).toContain(
      'uncapped accounts and accounts with no daily cap (consumption plan) take no part',
    );
  });

  it('shows an incomplete row as far as it goes and says what it lacks', () => {
    const reply = renderCommandOutcome({
      kind: 'accounts',
      accounts: [
        account({ accountId: 1, accountName: 'Prod', maxDailyGB: 50 }),
        { accountId: 2, accountName: 'Partial', maxDailyGB: 5, searchable: true },
        { accountName: 'Nameless id' },
      ],
    });
    expect(reply.blocks[1]?.text.text).toBe(
      [
        '```',
        'Name         ID  Max GB/day  Retention  Flags',
        'Prod         1   50 GB       7 d        —',
        'Partial      2   5 GB        ?          searchable',
        'Nameless id  ?   ?           ?          —',
        '```',
      ].join('\n'),
    );
    expect(reply.text).toContain(
      ':grey_question: *Partial* (2) came without retentionDays, accessible, docSizeSetting, sharingObjectsAccounts, utilizationSettings in the listing (shown as ? or left out of the flags): it takes no part in a capacity move until the listing shows it whole.',
    );
    expect(reply.text).toContain(':grey_question: *Nameless id* (no id) came without accountId, maxDailyGB,');
    expect(reply.text).not.toContain(':grey_question: *Prod*');
  });

  it('aligns the columns on what the reader sees, not on the escaped text', () => {
    const reply = renderCommandOutcome({
      kind: 'accounts',
      accounts: [
        account({ accountId: 1, accountName: 'R&D <eu>', maxDailyGB: 5 }),
        account({ accountId: 22, accountName: 'Ops', maxDailyGB: 6 }),
      ],
    });
    const table = reply.blocks[1]?.text.text ?? '';
    expect(table).toContain('R&amp;D &lt;eu&gt;  1   5 GB');
    const seen = table.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').split('\n');
    const idColumn = seen.slice(1, 4).map((line) => line.search(/\d+\s+\d+ GB|ID/));
    expect(new Set(idColumn).size).toBe(1);
  });

  it('splits a long accounts table into sections under Slack’s 3,000 characters', () => {
    const accounts = Array.from({ length: 120 }, (_, i) =>
      account({ accountId: 1000 + i, accountName: `Team ${i}` }),
    );
    const reply = renderCommandOutcome({ kind: 'accounts', accounts });
    expect(reply.blocks.length).toBeGreaterThan(2);
    for (const block of reply.blocks) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    const rows = reply.blocks
      .flatMap((b) => b.text.text.split('\n'))
      .filter((line) => /^Team \d+/.test(line));
    expect(rows).toHaveLength(120);
    expect(reply.text.length).toBeLessThanOrEqual(3000);
  });

  it('puts the new account’s token in the reply and recommends capacity at 0 GB', () => {
    const created = (maxDailyGB: number, defaulted: boolean) =>
      text({
        kind: 'account-created',
        accountId: 9,
        accountName: 'New',
        accountToken: 'tok-123',
        retentionDays: 7,
        retentionDefaulted: true,
        maxDailyGB,
        maxDailyGBDefaulted: defaulted,
      });
    expect(created(0, true)).toContain('`tok-123`');
    expect(created(0, true)).toContain(
      'max daily GB is 0 (the default), so it accepts no logs. Give it at least 1 GB',
    );
    expect(created(0, false)).toContain('max daily GB is 0, so');
    expect(created(2, false)).not.toContain('at least 1 GB');
    expect(created(2, false)).toContain('retention 7 days (the default)');
  });

  it('says a `{}` answer is a created account, and where to find its id and token', () => {
    const reply = text({
      kind: 'account-created',
      accountName: 'Quiet',
      retentionDays: 7,
      retentionDefaulted: true,
      maxDailyGB: 0,
      maxDailyGBDefaulted: true,
    });
    expect(reply).toContain(
      'Created sub account *Quiet* — the service did not say its id: `/agent accounts` lists it, retention 7 days (the default).',
    );
    expect(reply).toContain('its token is on the account page of the product');
    expect(reply).toContain('/agent capacity move 1 from &lt;account&gt; to &lt;account&gt;');
    expect(reply).not.toMatch(/fail|again|undefined/i);
  });

  it('says where the token is when the service created the account without sending one', () => {
    const reply = text({
      kind: 'account-created',
      accountId: 9,
      accountName: 'New',
      retentionDays: 14,
      retentionDefaulted: false,
      maxDailyGB: 1,
      maxDailyGBDefaulted: false,
    });
    expect(reply).toContain('Created sub account *New* (id 9), retention 14 days.');
    expect(reply).toContain('its token is on the account page of the product');
    expect(reply).not.toMatch(/fail|again/i);
  });

  it.each<[string, CapacityMoveError, string]>([
    [
      'ambiguous',
      new CapacityMoveError(CapacityMoveReason.AmbiguousAccount, 'x', {
        reference: 'staging',
        candidates: [
          { accountId: 2, accountName: 'Staging' },
          { accountId: 3, accountName: 'staging' },
        ],
      }),
      '“staging” names more than one account: Staging (2), staging (3). Use the id instead. Nothing was changed.',
    ],
    [
      'busy',
      new CapacityMoveError(CapacityMoveReason.Busy, 'x'),
      'Another capacity move is running — try again in a minute. Nothing was changed.',
    ],
    [
      'not restored',
      new CapacityMoveError(CapacityMoveReason.UpdateFailed, 'raising B failed', {
        failedStep: 'raise-recipient',
        states: [
          { accountId: 1, accountName: 'A', before: 5, now: 4 },
          { accountId: 2, accountName: 'B', before: 1, now: 1 },
        ],
        restored: false,
        cause: new AgentApiError('http_error', 'x', { status: 500 }),
      }),
      '• *A* (1): 5 GB → 4 GB\n• *B* (2): 1 GB → 1 GB\n\nPutting *A* back to 5 GB did not take effect: an admin needs to check both accounts',
    ],
    [
      'restored',
      new CapacityMoveError(CapacityMoveReason.UpdateFailed, 'raising B failed', {
        failedStep: 'raise-recipient',
        states: [
          { accountId: 1, accountName: 'A', before: 5, now: 5 },
          { accountId: 2, accountName: 'B', before: 1, now: 1 },
        ],
        restored: true,
        cause: new AgentApiError('timeout', 'x'),
      }),
      'The accounts as read back afterwards (before → now):\n• *A* (1): 5 GB → 5 GB\n• *B* (2): 1 GB → 1 GB\n\n*A* was put back to 5 GB.',
    ],
    [
      'state unknown',
      new CapacityMoveError(CapacityMoveReason.StateUnknown, 'lowering A failed', {
        failedStep: 'lower-donor',
        unknown: [
          { accountId: 1, accountName: 'A', possible: [5, 4] },
          { accountId: 2, accountName: 'B', possible: [1] },
        ],
        cause: new AgentApiError('network', 'x'),
      }),
      'Reading the accounts back failed too, so the bot changed nothing more and does not know their current values:\n• *A* (1): 5 GB or 4 GB\n• *B* (2): 1 GB\n\nCheck them with `/agent accounts`',
    ],
    [
      'state unknown after a restore was sent',
      new CapacityMoveError(CapacityMoveReason.StateUnknown, 'raising B failed', {
        failedStep: 'raise-recipient',
        restoreSent: true,
        unknown: [
          { accountId: 1, accountName: 'A', possible: [5, 4] },
          { accountId: 2, accountName: 'B', possible: [1, 2] },
        ],
        cause: new AgentApiError('timeout', 'x'),
      }),
      'The bot sent an update putting *A* back, then reading the accounts back failed',
    ],
    [
      'the main account',
      new CapacityMoveError(
        CapacityMoveReason.MainAccount,
        'Main (1) is the main account: its capacity is not moved by this command',
      ),
      'Main (1) is the main account: its capacity is not moved by this command. Nothing was changed.',
    ],
  ])('explains a capacity failure: %s', (_name, failure, expected) => {
    expect(text({ kind: 'capacity-failed', failure, referenceId: 'r2' })).toContain(expected);
  });

  it('lists export counts, and failures per type', () => {
    const reply = text({
      kind: 'exported',
      files: [{ type: 'search', filename: 'search-export-2025-01-31.json', content: '{}', count: 1 }],
      failures: [{ type: 'dashboard', error: new AgentApiError('timeout', 'x'), referenceId: 'r3' }],
      delivery: { ok: true },
    });
    expect(reply).toContain('• search: 1 saved object (`search-export-2025-01-31.json`)');
    expect(reply).toContain('• dashboard: The agent service took too long to respond');
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
