import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createdSubAccountSchema, listingPath, subAccountSchema } from '../../src/agent-api/accounts.js';
import {
  AgentApiError,
  fitsInt32,
  INT32_MAX,
  InvalidResponseError,
  isComplete,
  isEmailAddress,
  missingMembers,
  newAccountProblems,
  type SubAccount,
} from '../../src/agent-api/index.js';
import { testClient } from './support/client.js';
import { inOrder, type ScriptedServer, startScriptedServer } from './support/scripted-server.js';

/** The account schemas and checks as the vendor's OpenAPI file has them: optional members, int32, email. */

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const complete = {
  accountId: 7,
  accountName: 'Staging',
  maxDailyGB: 20,
  retentionDays: 14,
  searchable: true,
  accessible: false,
  docSizeSetting: true,
  sharingObjectsAccounts: [{ accountId: 8, accountName: 'QA' }],
  utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
};

describe('a listing row', () => {
  const listing = z.array(subAccountSchema);

  it('parses when rows lack members (every listing member is optional in the spec)', () => {
    const rows = [
      complete,
      { accountId: 9, accountName: 'Partial' },
      {},
      { accountName: 'No id', maxDailyGB: null },
    ];
    const parsed = listing.parse(rows);
    expect(parsed).toHaveLength(4);
    expect(parsed[1]).toEqual({ accountId: 9, accountName: 'Partial' });
  });

  it('parses a sharing entry without its id (both SharingAccount members are optional in the spec)', () => {
    const rows = [
      complete,
      { ...complete, accountId: 10, sharingObjectsAccounts: [8, { accountName: 'QA' }] },
    ];
    const parsed = listing.parse(rows);
    expect(parsed[1]?.sharingObjectsAccounts).toEqual([8, { accountName: 'QA' }]);
    // …but not an id of the wrong type.
    const wrong = { ...complete, sharingObjectsAccounts: [{ accountId: 'eight' }] };
    expect(listing.safeParse([complete, wrong]).success).toBe(false);
  });

  it('still refuses a member of the wrong type: optional is not "anything"', () => {
    expect(listing.safeParse([complete, { ...complete, retentionDays: 'fourteen' }]).success).toBe(false);
  });

  it.each([
    [complete, []],
    [{ ...complete, maxDailyGB: null }, []],
    [{ ...complete, retentionDays: undefined }, ['retentionDays']],
    [{ ...complete, searchable: null }, ['searchable']],
    [{ ...complete, accountId: undefined, maxDailyGB: undefined }, ['accountId', 'maxDailyGB']],
    [
      { ...complete, utilizationSettings: { frequencyMinutes: 5 } },
      ['utilizationSettings.utilizationEnabled'],
    ],
    [{ ...complete, utilizationSettings: { utilizationEnabled: true } }, []],
    // An update sends sharing accounts as ids: an entry without one makes the row incomplete.
    [{ ...complete, sharingObjectsAccounts: [{ accountName: 'QA' }] }, ['the id of a sharing account']],
    [
      { ...complete, sharingObjectsAccounts: [8, { accountId: null, accountName: 'QA' }] },
      ['the id of a sharing account'],
    ],
    [{ ...complete, sharingObjectsAccounts: [8, 9] }, []],
    [
      { accountName: 'Bare' },
      [
        'accountId',
        'maxDailyGB',
        'retentionDays',
        'searchable',
        'accessible',
        'docSizeSetting',
        'sharingObjectsAccounts',
        'utilizationSettings',
      ],
    ],
  ])('%j lacks %j', (row, missing) => {
    const account = subAccountSchema.parse(row) as SubAccount;
    expect(missingMembers(account)).toEqual(missing);
    expect(isComplete(account)).toBe(missing.length === 0);
  });
});

describe('the creation answer', () => {
  it.each([
    [{}, { accountId: undefined, accountToken: undefined }],
    [{ accountId: 5 }, { accountId: 5, accountToken: undefined }],
    [
      { accountId: 5, accountToken: 't' },
      { accountId: 5, accountToken: 't' },
    ],
    [
      { accountId: null, accountToken: null, extra: 1 },
      { accountId: undefined, accountToken: undefined },
    ],
  ])('%j is a created account: %j', (body, created) => {
    expect(createdSubAccountSchema.parse(body)).toEqual(created);
  });

  it.each([
    ['{}', { status: 200, body: {} }],
    ['an empty 201', { status: 201 }],
    ['an id only', { status: 200, body: { accountId: 31 } }],
  ])('%s from the service is a created account, asked once', async (_name, reply) => {
    server = await startScriptedServer(inOrder(reply));
    const created = await testClient(server.url).api.createSubAccount({
      email: 'admin@example.com',
      accountName: 'New',
      retentionDays: 7,
    });
    expect(created.accountToken).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it('a 2xx that is not JSON is still not an account: it could be anything', async () => {
    server = await startScriptedServer(inOrder({ status: 200, body: '<html>proxy</html>' }));
    const failure = await testClient(server.url)
      .api.createSubAccount({ email: 'admin@example.com', accountName: 'New', retentionDays: 7 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidResponseError);
  });
});

describe('checks before sending', () => {
  // The spec's own `pattern` for email (accounts.ts), its edges included: the bot takes what
  // the service takes, and nothing it would answer 400 to.
  it.each([
    ['admin@example.com', true],
    ['first_last-2@sub.example.co.uk', true],
    ['first+tag.last@example.com', true],
    // `+` only before the first dot of the local part.
    ['first.last+tag@example.com', false],
    // No other symbols in the local part, no leading dot.
    ["o'brien@example.com", false],
    ['.admin@example.com', false],
    // The domain's labels may start with a hyphen; the last one is two or more letters.
    ['admin@-example.com', true],
    ['admin@example.c0m', false],
    ['admin@example.c', false],
    ['admin', false],
    ['admin@example', false],
    ['admin@@example.com', false],
    ['ad min@example.com', false],
    ['admin@example..com', false],
    ['<mailto:admin@example.com|admin@example.com>', false],
  ])('%s is an email address: %s', (value, expected) => {
    expect(isEmailAddress(value)).toBe(expected);
  });

  it.each([
    [INT32_MAX, true],
    [INT32_MAX + 1, false],
    [2.5, true],
    [Number.POSITIVE_INFINITY, false],
  ])('%d fits int32: %s', (value, expected) => {
    expect(fitsInt32(value)).toBe(expected);
  });

  it('names each value the spec would refuse', () => {
    expect(newAccountProblems({ email: 'admin@example.com', retentionDays: 7, maxDailyGB: 1.5 })).toEqual([]);
    expect(
      newAccountProblems({ email: 'admin@example', retentionDays: 3_000_000_000, maxDailyGB: 3_000_000_000 }),
    ).toEqual([
      '“admin@example” is not an email address',
      'the retention 3000000000 days is more than the service accepts (2147483647)',
      'the max daily GB 3000000000 is not between 0 and 2147483647',
    ]);
  });

  it('createSubAccount sends nothing the spec would refuse', async () => {
    server = await startScriptedServer(inOrder({ status: 200, body: { accountId: 1 } }));
    const failure = await testClient(server.url)
      .api.createSubAccount({ email: 'admin@localhost', accountName: 'X', retentionDays: 7 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentApiError);
    expect((failure as AgentApiError).code).toBe('invalid_input');
    expect((failure as AgentApiError).message).toContain('admin@localhost');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the listing path', () => {
  it.each([
    ['', '/account-management/time-based-accounts/'],
    ['/v1', '/v1/account-management/time-based-accounts'],
  ])('prefix %j → %s', (accountPathPrefix, path) => {
    expect(listingPath({ accountPathPrefix })).toBe(path);
  });
});
