import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_ADMIN_EMAILS, SIM_TOKENS, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { call, errorBodyShape } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const base = '/account-management/time-based-accounts';
const main = { token: SIM_TOKENS.main };
// biome-ignore lint/suspicious/noExplicitAny: listing entries are checked field by field
const listAll = async (s = sim): Promise<any[]> => (await call(s, 'GET', `${base}/`, main)).body;
/** The sub accounts only (the listing starts with the main account). */
const list = async (s = sim) => (await listAll(s)).filter((a) => !a.isOwner);

/** A PUT body built the careful way: everything the listing gave, sharing accounts as ids. */
// biome-ignore lint/suspicious/noExplicitAny: listing entries are loose JSON
function fullBody(listed: any) {
  const {
    accountId: _id,
    email: _email,
    isOwner: _owner,
    isCapped: _capped,
    sharedGB: _shared,
    totalTimeBasedDailyGB: _total,
    ...rest
  } = listed;
  return {
    ...rest,
    sharingObjectsAccounts: listed.sharingObjectsAccounts.map((a: { accountId: number }) => a.accountId),
  };
}

describe('listing', () => {
  it('is served with and without the trailing slash', async () => {
    const withSlash = await call(sim, 'GET', `${base}/`, main);
    const without = await call(sim, 'GET', base, main);
    expect(withSlash.status).toBe(200);
    expect(without.body).toEqual(withSlash.body);
  });

  it('hides tokens, nulls emails, names sharing accounts and carries the extra fields', async () => {
    const accounts = await listAll();
    expect(accounts.map((a) => a.accountName)).toEqual([
      'Sim Main Account',
      'Production',
      'Staging',
      'Security',
      'QA Team',
    ]);
    expect(accounts.map((a) => a.isOwner)).toEqual([true, false, false, false, false]);
    const production = accounts[1];
    expect(production).toEqual({
      accountId: 200001,
      email: null,
      accountName: 'Production',
      maxDailyGB: 50,
      retentionDays: 30,
      searchable: true,
      accessible: true,
      docSizeSetting: true,
      sharingObjectsAccounts: [{ accountId: 200002, accountName: 'Staging' }],
      utilizationSettings: { frequencyMinutes: 15, utilizationEnabled: true },
      reservedDailyGB: 40,
      isFlexible: true,
      softLimitGB: 45,
      snapSearchRetentionDays: 90,
      isOwner: false,
      isCapped: true,
      sharedGB: 0,
      totalTimeBasedDailyGB: 50,
      simUndocumented: { note: 'members the service adds must survive a PUT' },
    });
    for (const account of accounts) expect(account).not.toHaveProperty('accountToken');
  });

  it('has an uncapped flexible account: maxDailyGB null, isCapped false', async () => {
    const security = (await list()).find((a) => a.accountName === 'Security');
    expect(security).toMatchObject({
      accountId: 200003,
      maxDailyGB: null,
      isFlexible: true,
      isCapped: false,
    });
  });
});

describe('the main account', () => {
  const owner = async () => (await listAll())[0];

  it('keeps its retention and, while not flexible, its capacity', async () => {
    const listed = await owner();
    for (const change of [{ retentionDays: 7 }, { maxDailyGB: 90 }]) {
      const res = await call(sim, 'PUT', `${base}/100000`, {
        ...main,
        body: { ...fullBody(listed), ...change },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/main account's (retentionDays|maxDailyGB)/);
    }
    expect(await owner()).toEqual(listed);
  });

  it('accepts a PUT that changes neither', async () => {
    const listed = await owner();
    const res = await call(sim, 'PUT', `${base}/100000`, {
      ...main,
      body: { ...fullBody(listed), searchable: false },
    });
    expect(res.status).toBe(204);
    expect(await owner()).toEqual({ ...listed, searchable: false });
  });
});

describe('creation', () => {
  it('creates with an admin email, answers {accountId, accountToken}, defaults maxDailyGB to 0', async () => {
    const res = await call(sim, 'POST', base, {
      ...main,
      body: {
        email: SIM_ADMIN_EMAILS[0],
        accountName: 'New Team',
        retentionDays: 10,
        sharingObjectsAccounts: [],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountId: expect.any(Number), accountToken: expect.any(String) });
    const created = (await list()).find((a) => a.accountId === res.body.accountId);
    expect(created).toMatchObject({ accountName: 'New Team', maxDailyGB: 0, retentionDays: 10, email: null });
    expect(sim.accounts().find((a) => a.accountId === res.body.accountId)?.email).toBe(SIM_ADMIN_EMAILS[0]);
  });

  const valid = {
    email: SIM_ADMIN_EMAILS[0],
    accountName: 'X',
    retentionDays: 7,
    sharingObjectsAccounts: [],
  };
  it.each([
    ['a non-admin email', { ...valid, email: 'someone@example.com' }],
    ['no accountName', { ...valid, accountName: undefined }],
    ['a negative maxDailyGB', { ...valid, maxDailyGB: -1 }],
    ['no sharingObjectsAccounts', { ...valid, sharingObjectsAccounts: undefined }],
    ['no retentionDays', { ...valid, retentionDays: undefined }],
    ['an uncapped account that is not flexible', { ...valid, maxDailyGB: null }],
  ])('refuses %s with 400', async (_name, body) => {
    const res = await call(sim, 'POST', base, { ...main, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
    expect(sim.accounts()).toHaveLength(5);
  });

  it('can be scripted to answer without the token, as the vendor spec documents it', async () => {
    sim.faults.createWithoutToken = true;
    const res = await call(sim, 'POST', base, { ...main, body: valid });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountId: expect.any(Number) });
    expect(sim.accounts().some((a) => a.accountId === res.body.accountId)).toBe(true);
  });
});

describe('PUT is a full replacement', () => {
  it('answers 204 with no body and changes only what a full body changes', async () => {
    const [production, ...others] = await list();
    const res = await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { ...fullBody(production), maxDailyGB: 35 },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await list()).toEqual([{ ...production, maxDailyGB: 35, totalTimeBasedDailyGB: 35 }, ...others]);
  });

  it('refuses response-only fields in the body', async () => {
    const [production] = await list();
    for (const field of ['isOwner', 'isCapped', 'sharedGB', 'totalTimeBasedDailyGB']) {
      const res = await call(sim, 'PUT', `${base}/200001`, {
        ...main,
        body: { ...fullBody(production), [field]: production[field] },
      });
      expect(res.status, field).toBe(400);
      expect(res.body.message).toContain(field);
    }
  });

  it('takes maxDailyGB null for a flexible account only', async () => {
    const [production, staging] = await list();
    const flexible = await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { ...fullBody(production), maxDailyGB: null },
    });
    expect(flexible.status).toBe(204);
    const fixed = await call(sim, 'PUT', `${base}/200002`, {
      ...main,
      body: { ...fullBody(staging), maxDailyGB: null },
    });
    expect(fixed.status).toBe(400);
  });

  it('resets every omitted setting to its default, so a sloppy client shows', async () => {
    await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { accountName: 'Production', maxDailyGB: 35, sharingObjectsAccounts: [] },
    });
    expect((await list())[0]).toEqual({
      accountId: 200001,
      email: null,
      accountName: 'Production',
      maxDailyGB: 35,
      retentionDays: 7,
      searchable: false,
      accessible: false,
      docSizeSetting: false,
      sharingObjectsAccounts: [],
      utilizationSettings: { frequencyMinutes: null, utilizationEnabled: false },
      reservedDailyGB: null,
      isFlexible: false,
      softLimitGB: null,
      snapSearchRetentionDays: null,
      isOwner: false,
      isCapped: true,
      sharedGB: 0,
      totalTimeBasedDailyGB: 35,
    });
  });

  it('refuses a body without accountName or sharingObjectsAccounts (the spec requires both)', async () => {
    for (const body of [{ accountName: 'Production' }, { sharingObjectsAccounts: [] }]) {
      expect((await call(sim, 'PUT', `${base}/200001`, { ...main, body })).status).toBe(400);
    }
  });

  it('refuses sharingObjectsAccounts sent as the listing objects, and other bad values', async () => {
    const [production] = await list();
    for (const body of [
      { ...fullBody(production), sharingObjectsAccounts: production.sharingObjectsAccounts },
      { ...fullBody(production), sharingObjectsAccounts: [999] },
      { ...fullBody(production), accountName: '' },
      { ...fullBody(production), searchable: 'yes' },
    ]) {
      const res = await call(sim, 'PUT', `${base}/200001`, { ...main, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(errorBodyShape);
    }
    expect((await list())[0]).toEqual(production);
  });

  it('answers 404 for an unknown account', async () => {
    const res = await call(sim, 'PUT', `${base}/123`, { ...main, body: { accountName: 'x' } });
    expect(res.status).toBe(404);
  });

  it('records every PUT body in order', async () => {
    const share = { sharingObjectsAccounts: [] };
    await call(sim, 'PUT', `${base}/200002`, {
      ...main,
      body: { accountName: 'Staging', maxDailyGB: 1, ...share },
    });
    await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { accountName: 'Production', maxDailyGB: 2, ...share },
    });
    expect(sim.putLog.map((p) => [p.accountId, (p.body as { maxDailyGB: number }).maxDailyGB])).toEqual([
      [200002, 1],
      [200001, 2],
    ]);
  });

  it('can answer 200 instead of 204', async () => {
    const other = await startSimulator({ quiet: true, putStatus: 200 });
    try {
      const [production] = await list(other);
      expect(
        (await call(other, 'PUT', `${base}/200001`, { ...main, body: fullBody(production) })).status,
      ).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('accountPathPrefix', () => {
  it('serves account and export paths under the prefix as well', async () => {
    const v1 = await startSimulator({ quiet: true, accountPathPrefix: '/v1' });
    try {
      expect((await call(v1, 'GET', `/v1${base}/`, main)).status).toBe(200);
      expect((await call(v1, 'GET', `${base}/`, main)).status).toBe(200);
      expect((await call(v1, 'POST', '/v1/kibana/export', { body: { type: 'search' } })).status).toBe(200);
      expect((await call(v1, 'GET', '/v1/whoami')).status).toBe(404);
    } finally {
      await v1.close();
    }
  });
});
