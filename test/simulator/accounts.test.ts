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
const list = async (s = sim): Promise<any[]> => (await call(s, 'GET', `${base}/`, main)).body;

/** A PUT body built the careful way: everything the listing gave, sharing accounts as ids. */
// biome-ignore lint/suspicious/noExplicitAny: listing entries are loose JSON
function fullBody(listed: any) {
  const { accountId: _id, email: _email, ...rest } = listed;
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
    const accounts = await list();
    expect(accounts.map((a) => a.accountName)).toEqual(['Production', 'Staging', 'staging', 'QA Team']);
    const production = accounts[0];
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
    });
    for (const account of accounts) expect(account).not.toHaveProperty('accountToken');
  });
});

describe('creation', () => {
  it('creates with an admin email, answers {accountId, accountToken}, defaults maxDailyGB to 0', async () => {
    const res = await call(sim, 'POST', base, {
      ...main,
      body: { email: SIM_ADMIN_EMAILS[0], accountName: 'New Team', retentionDays: 10 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accountId: expect.any(Number), accountToken: expect.any(String) });
    const created = (await list()).find((a) => a.accountId === res.body.accountId);
    expect(created).toMatchObject({ accountName: 'New Team', maxDailyGB: 0, retentionDays: 10, email: null });
    expect(sim.accounts().find((a) => a.accountId === res.body.accountId)?.email).toBe(SIM_ADMIN_EMAILS[0]);
  });

  it.each([
    ['a non-admin email', { email: 'someone@example.com', accountName: 'X', retentionDays: 7 }],
    ['no accountName', { email: SIM_ADMIN_EMAILS[0], retentionDays: 7 }],
    ['a negative maxDailyGB', { email: SIM_ADMIN_EMAILS[0], accountName: 'X', maxDailyGB: -1 }],
  ])('refuses %s with 400', async (_name, body) => {
    const res = await call(sim, 'POST', base, { ...main, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
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
    expect(await list()).toEqual([{ ...production, maxDailyGB: 35 }, ...others]);
  });

  it('resets every omitted setting to its default, so a sloppy client shows', async () => {
    await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { accountName: 'Production', maxDailyGB: 35 },
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
    });
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
    await call(sim, 'PUT', `${base}/200002`, { ...main, body: { accountName: 'Staging', maxDailyGB: 1 } });
    await call(sim, 'PUT', `${base}/200001`, { ...main, body: { accountName: 'Production', maxDailyGB: 2 } });
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
