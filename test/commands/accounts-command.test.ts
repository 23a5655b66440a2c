import { describe, expect, it } from 'vitest';
import type { SubAccount } from '../../src/agent-api/index.js';
import { type CommandOutcome, parseCommand } from '../../src/commands/registry.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';
import { parseError, setup } from './command-harness.js';

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

describe('parsing /agent accounts', () => {
  it.each([
    ['accounts', { kind: 'accounts' }],
    [
      'accounts create "QA Team" admin@example.com',
      { kind: 'accounts-create', name: 'QA Team', email: 'admin@example.com' },
    ],
    [
      'accounts create Ops <mailto:ops@example.com|ops@example.com> 7 2.5',
      { kind: 'accounts-create', name: 'Ops', email: 'ops@example.com', retentionDays: 7, maxDailyGB: 2.5 },
    ],
    [
      'accounts create Big a@b.io 2147483647 2147483647',
      {
        kind: 'accounts-create',
        name: 'Big',
        email: 'a@b.io',
        retentionDays: 2147483647,
        maxDailyGB: 2147483647,
      },
    ],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['accounts create OnlyName', 'something is missing'],
    ['accounts create Name not-an-email', '“not-an-email” is not an email address'],
    ['accounts create Name a@b.io zero', 'retention-days must be a whole number'],
    ['accounts create Name a@b.io 0', 'retention-days must be a whole number'],
    ['accounts create Name a@b.io 7 -1', 'max-daily-GB must be a number'],
    ['accounts create Name a@b.io 7 1 extra', 'unexpected “extra”'],
    // The vendor's spec: `format: email` and int32 numbers; the value is named, nothing is sent.
    ['accounts create Name admin@localhost', '“admin@localhost” is not an email address'],
    ['accounts create Name "ad min@example.com"', '“ad min@example.com” is not an email'],
    [
      'accounts create Name a@b.io 2147483648',
      'retention-days 2147483648 is more than the service accepts (at most 2147483647)',
    ],
    [
      'accounts create Name a@b.io 7 3000000000GB',
      'max-daily-GB 3000000000GB is more than the service accepts (at most 2147483647)',
    ],
    ['accounts delete x', 'unknown accounts command “delete”'],
  ])('%j is refused with the usage line', (text, problem) => {
    const result = parseError(text);
    expect(result.subcommand).toBe('accounts-create');
    expect(result.problem).toContain(problem);
    expect(result.usage).toMatch(/^\/agent /);
  });
});

describe('running /agent accounts create', () => {
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
});

describe('/agent accounts replies', () => {
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
});
