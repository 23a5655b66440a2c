import { describe, expect, it } from 'vitest';
import type { CompleteSubAccount, SubAccount } from '../../src/agent-api/index.js';
import {
  buildUpdateBody,
  CapacityMoveError,
  planMove,
  resolveAccount,
  roundGb,
} from '../../src/capacity/index.js';

/** The pure half of a capacity move: table tests, no I/O. */

function account(
  accountId: number,
  accountName: string,
  maxDailyGB: number | null,
  extra: object = {},
): CompleteSubAccount {
  return {
    accountId,
    email: null,
    accountName,
    maxDailyGB,
    retentionDays: 7,
    searchable: true,
    accessible: false,
    docSizeSetting: true,
    sharingObjectsAccounts: [],
    utilizationSettings: { frequencyMinutes: 15, utilizationEnabled: true },
    ...extra,
  };
}

const accounts = [
  account(11, 'Production', 50),
  account(12, 'Staging', 20),
  account(13, 'staging', 5),
  account(14, 'QA Team', 8),
  account(15, '11', 1),
];

function reasonOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CapacityMoveError);
    return (error as CapacityMoveError).reason;
  }
  return 'no error';
}

describe('resolveAccount', () => {
  it.each([
    ['14', 14],
    [' 12 ', 12],
    ['production', 11],
    ['PRODUCTION', 11],
    ['qa team', 14],
    ['11', 11], // an id wins over an account named "11"
    ['15', 15],
  ])('%j → account %i', (reference, id) => {
    expect(resolveAccount(accounts, reference).accountId).toBe(id);
  });

  it.each([
    ['nope', 'unknown_account'],
    ['99', 'unknown_account'],
    ['QA', 'unknown_account'],
    ['', 'unknown_account'],
    ['STAGING', 'ambiguous_account'],
  ])('%j → %s', (reference, reason) => {
    expect(reasonOf(() => resolveAccount(accounts, reference))).toBe(reason);
  });

  it('lists the candidates of an ambiguous name', () => {
    try {
      resolveAccount(accounts, 'staging');
      expect.unreachable();
    } catch (error) {
      expect((error as CapacityMoveError).candidates).toEqual([
        { accountId: 12, accountName: 'Staging' },
        { accountId: 13, accountName: 'staging' },
      ]);
    }
  });
});

describe('planMove', () => {
  it.each([
    [
      { gb: 5, from: 'Production', to: 'QA Team' },
      { donorAfter: 45, recipientAfter: 13 },
    ],
    [
      { gb: 0.1, from: '14', to: '11' },
      { donorAfter: 7.9, recipientAfter: 50.1 },
    ],
    [
      { gb: 8, from: 'qa team', to: 'production' },
      { donorAfter: 0, recipientAfter: 58 },
    ],
    [
      { gb: 0.30000000000000004, from: '14', to: '11' },
      { donorAfter: 7.7, recipientAfter: 50.3 },
    ],
  ])('%j', (request, expected) => {
    expect(planMove(accounts, request)).toMatchObject(expected);
  });

  it.each([
    [{ gb: 0, from: '11', to: '14' }, 'invalid_amount'],
    [{ gb: -1, from: '11', to: '14' }, 'invalid_amount'],
    [{ gb: Number.NaN, from: '11', to: '14' }, 'invalid_amount'],
    [{ gb: Number.POSITIVE_INFINITY, from: '11', to: '14' }, 'invalid_amount'],
    [{ gb: 0.0000001, from: '11', to: '14' }, 'invalid_amount'],
    [{ gb: 1, from: '11', to: 'production' }, 'same_account'],
    [{ gb: 8.5, from: 'QA Team', to: '11' }, 'insufficient_capacity'],
    [{ gb: 1, from: 'ghost', to: '11' }, 'unknown_account'],
    [{ gb: 1, from: '11', to: 'staging' }, 'ambiguous_account'],
  ])('%j → %s', (request, reason) => {
    expect(reasonOf(() => planMove(accounts, request))).toBe(reason);
  });

  const odd: SubAccount[] = [
    account(41, 'Capped', 10),
    account(42, 'Flexible', null, { isFlexible: true }),
    account(43, 'Consumption', null, { isFlexible: false }),
    { accountId: 44, accountName: 'Partial', maxDailyGB: 5, searchable: true },
    { accountName: 'No Id', maxDailyGB: 5 },
    account(46, 'Huge', 2_147_483_640),
    account(47, 'Owner', 100, { isOwner: true }),
    account(48, 'Shares Unnamed', 10, { sharingObjectsAccounts: [41, { accountName: 'Gone' }] }),
  ];

  it.each([
    [{ gb: 1, from: 'Flexible', to: 'Capped' }, 'uncapped_account', 'is uncapped (flexible'],
    [{ gb: 1, from: 'Capped', to: 'Consumption' }, 'no_daily_cap', 'has no daily cap (consumption plan)'],
    [
      { gb: 1, from: 'Partial', to: 'Capped' },
      'incomplete_account',
      'without retentionDays, accessible, docSizeSetting, sharingObjectsAccounts, utilizationSettings',
    ],
    [{ gb: 1, from: 'Capped', to: 'no id' }, 'incomplete_account', 'No Id (no id) without accountId'],
    // Its PUT could not send that sharing back (the listing gave no id), and would end it.
    [{ gb: 1, from: 'Capped', to: '48' }, 'incomplete_account', 'without the id of a sharing account'],
    [{ gb: 1, from: 'Owner', to: 'Capped' }, 'main_account', 'is the main account'],
    [{ gb: 1000, from: 'Capped', to: 'Huge' }, 'insufficient_capacity', 'fewer than'],
    [
      { gb: 9, from: 'Capped', to: 'Huge' },
      'out_of_range',
      'Huge would have 2147483649 GB, more than the service accepts',
    ],
    [{ gb: 3_000_000_000, from: 'Capped', to: 'Huge' }, 'out_of_range', '3000000000 GB is more than'],
  ])('%j → %s', (request, reason, words) => {
    try {
      planMove(odd, request);
      expect.unreachable();
    } catch (error) {
      expect((error as CapacityMoveError).reason).toBe(reason);
      expect((error as CapacityMoveError).message).toContain(words);
    }
  });

  it('names what an incomplete row lacks', () => {
    try {
      planMove(odd, { gb: 1, from: '44', to: 'Capped' });
      expect.unreachable();
    } catch (error) {
      expect((error as CapacityMoveError).missing).toEqual([
        'retentionDays',
        'accessible',
        'docSizeSetting',
        'sharingObjectsAccounts',
        'utilizationSettings',
      ]);
    }
  });
});

describe('buildUpdateBody', () => {
  const listed = account(21, 'Production', 50, {
    email: null,
    sharingObjectsAccounts: [
      { accountId: 22, accountName: 'Staging' },
      { accountId: 24, accountName: 'QA Team' },
    ],
    reservedDailyGB: 40,
    isFlexible: true,
    softLimitGB: null,
    snapSearchRetentionDays: 90,
    someFutureField: { nested: [1, 2] },
  });

  it('sends back every listed field but accountId/email/accountToken, sharing accounts as ids', () => {
    expect(buildUpdateBody({ ...listed, accountToken: 'x' } as CompleteSubAccount, 49.5)).toStrictEqual({
      accountName: 'Production',
      maxDailyGB: 49.5,
      retentionDays: 7,
      searchable: true,
      accessible: false,
      docSizeSetting: true,
      sharingObjectsAccounts: [22, 24],
      utilizationSettings: { frequencyMinutes: 15, utilizationEnabled: true },
      reservedDailyGB: 40,
      isFlexible: true,
      // softLimitGB: null is not sent: null means "not set", and the spec types it as a number.
      snapSearchRetentionDays: 90,
      someFutureField: { nested: [1, 2] },
    });
  });

  it('leaves out null members at any depth, unknown ones too, but keeps array elements', () => {
    const body = buildUpdateBody(
      account(31, 'QA', 8, {
        reservedDailyGB: null,
        softLimitGB: null,
        snapSearchRetentionDays: null,
        utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
        futureSetting: null,
        futureObject: { limit: null, mode: 'x', list: [null, 1] },
      }),
      9,
    );
    expect(body).toStrictEqual({
      accountName: 'QA',
      maxDailyGB: 9,
      retentionDays: 7,
      searchable: true,
      accessible: false,
      docSizeSetting: true,
      sharingObjectsAccounts: [],
      utilizationSettings: { utilizationEnabled: false },
      futureObject: { mode: 'x', list: [null, 1] },
    });
    expect(JSON.stringify(body)).not.toMatch(/:null[,}]/);
  });

  it.each(['snapsearchRetentionDays', 'snapSearchRetentionDays'])(
    'sends the snap retention back in the spelling the listing used (%s)',
    (spelling) => {
      const body = buildUpdateBody(account(32, 'Warm', 4, { [spelling]: 3 }), 5);
      expect(body[spelling]).toBe(3);
      expect(Object.keys(body).filter((key) => /^snap/i.test(key))).toEqual([spelling]);
    },
  );

  it('leaves the listed account untouched and rounds float noise', () => {
    const copy = structuredClone(listed);
    expect(buildUpdateBody(listed, 0.1 + 0.2).maxDailyGB).toBe(0.3);
    expect(listed).toStrictEqual(copy);
    expect(roundGb(1.0000004)).toBe(1);
  });
});
