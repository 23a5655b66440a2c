import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_ADMIN_EMAILS, SIM_TOKENS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
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

/**
 * A PUT body built the careful way: everything the listing gave but its null ("not set") members,
 * sharing accounts as ids.
 */
// biome-ignore lint/suspicious/noExplicitAny: listing entries are loose JSON
function fullBody(listed: any): Record<string, unknown> {
  const {
    accountId: _id,
    email: _email,
    isOwner: _owner,
    isCapped: _capped,
    sharedGB: _shared,
    totalTimeBasedDailyGB: _total,
    ...rest
  } = listed;
  const set = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
  return {
    ...set,
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
  it('serves account and export paths under the prefix as well, as the spec writes them', async () => {
    const v1 = await startSimulator({ quiet: true, accountPathPrefix: '/v1' });
    try {
      expect((await call(v1, 'GET', `/v1${base}`, main)).status).toBe(200);
      // The vendor's spec has no trailing slash under /v1: a server that follows it answers 404.
      const slashed = await call(v1, 'GET', `/v1${base}/`, main);
      expect(slashed.status).toBe(404);
      expect(slashed.body).toEqual(errorBodyShape);
      expect((await call(v1, 'PUT', `/v1${base}/200001/`, { ...main, body: {} })).status).toBe(404);
      // The seed's unprefixed paths stay as they are: the listing with or without its slash.
      expect((await call(v1, 'GET', `${base}/`, main)).status).toBe(200);
      expect((await call(v1, 'GET', base, main)).status).toBe(200);
      expect((await call(v1, 'POST', '/v1/kibana/export', { body: { type: 'search' } })).status).toBe(200);
      expect((await call(v1, 'GET', '/v1/whoami')).status).toBe(404);
    } finally {
      await v1.close();
    }
  });
});

describe("the vendor's OpenAPI spec", () => {
  it.each([
    ['reservedDailyGB', 'Production'],
    ['softLimitGB', 'Production'],
    ['snapSearchRetentionDays', 'Production'],
    ['reservedDailyGB', 'QA Team'],
  ])('refuses %s: null in a PUT (%s) with 400 in the service error shape', async (member, name) => {
    const listed = (await list()).find((a) => a.accountName === name);
    const res = await call(sim, 'PUT', `${base}/${listed.accountId}`, {
      ...main,
      body: { ...fullBody(listed), [member]: null },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
    expect(res.body.message).toContain(`${member} should be number, not null`);
    expect(sim.accounts().find((a) => a.accountId === listed.accountId)?.[member as 'softLimitGB']).toBe(
      listed[member],
    );
  });

  it('takes the same body with the unset members left out, and keeps them unset', async () => {
    const qa = (await list()).find((a) => a.accountName === 'QA Team');
    expect(qa).toMatchObject({ reservedDailyGB: null, softLimitGB: null, snapSearchRetentionDays: null });
    const res = await call(sim, 'PUT', `${base}/200004`, {
      ...main,
      body: { ...fullBody(qa), maxDailyGB: 9 },
    });
    expect(res.status).toBe(204);
    expect((await list()).find((a) => a.accountName === 'QA Team')).toEqual({
      ...qa,
      maxDailyGB: 9,
      totalTimeBasedDailyGB: 9,
    });
  });

  it('takes snapsearchRetentionDays in the spec’s spelling too, but not both spellings at once', async () => {
    const [production] = await list();
    const { snapSearchRetentionDays, ...rest } = fullBody(production);
    const spec = await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { ...rest, snapsearchRetentionDays: 60 },
    });
    expect(spec.status).toBe(204);
    expect(sim.accounts().find((a) => a.accountId === 200001)).toMatchObject({ snapSearchRetentionDays: 60 });
    const both = await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { ...rest, snapsearchRetentionDays: 30, snapSearchRetentionDays },
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('both snapsearchRetentionDays and snapSearchRetentionDays');
  });

  const creation = {
    email: SIM_ADMIN_EMAILS[0],
    accountName: 'Spec',
    retentionDays: 7,
    sharingObjectsAccounts: [],
  };
  it.each([
    ['an email without a domain', { ...creation, email: 'admin' }],
    ['an email without a top-level domain', { ...creation, email: 'admin@example' }],
    ['an email with a space', { ...creation, email: 'ad min@example.com' }],
    // The spec's pattern takes `+` only before the first dot of the local part.
    ['an email with + after a dot', { ...creation, email: 'ops.lead+x@example.com' }],
    ['an email whose top-level domain has a digit', { ...creation, email: 'admin@example.c0m' }],
    ['retentionDays past int32', { ...creation, retentionDays: 2_147_483_648 }],
    ['maxDailyGB past int32', { ...creation, maxDailyGB: 2_147_483_648 }],
  ])('refuses a creation with %s (400, nothing created)', async (_name, body) => {
    const res = await call(sim, 'POST', base, { ...main, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
    expect(res.body.message).toMatch(/^request\.body\.(email|retentionDays|maxDailyGB) should /);
    expect(sim.accounts()).toHaveLength(5);
  });

  it('refuses a PUT whose maxDailyGB or retentionDays does not fit int32', async () => {
    const [production] = await list();
    for (const change of [{ maxDailyGB: 2_147_483_648 }, { retentionDays: 2_147_483_648 }]) {
      const res = await call(sim, 'PUT', `${base}/200001`, {
        ...main,
        body: { ...fullBody(production), ...change },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('should fit int32');
    }
    const atLimit = await call(sim, 'PUT', `${base}/200001`, {
      ...main,
      body: { ...fullBody(production), maxDailyGB: 2_147_483_647 },
    });
    expect(atLimit.status).toBe(204);
  });

  it('can answer a creation with {}: the account exists all the same', async () => {
    sim.faults.createAnswersEmpty = true;
    const res = await call(sim, 'POST', base, { ...main, body: creation });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect((await list()).map((a) => a.accountName)).toContain('Spec');
  });

  it('can list one row without some members, leaving the others whole', async () => {
    const before = await listAll();
    sim.faults.listingOmits = {
      accountId: 200002,
      members: ['retentionDays', 'searchable', 'utilizationSettings.utilizationEnabled'],
    };
    const after = await listAll();
    const staging = after.find((a) => a.accountId === 200002);
    expect(staging).not.toHaveProperty('retentionDays');
    expect(staging).not.toHaveProperty('searchable');
    expect(staging.utilizationSettings).toEqual({ frequencyMinutes: 60 });
    expect(staging.maxDailyGB).toBe(20);
    expect(after.filter((a) => a.accountId !== 200002)).toEqual(before.filter((a) => a.accountId !== 200002));
    // Only the listing is shaped: the account itself is unchanged.
    expect(sim.accounts().find((a) => a.accountId === 200002)?.retentionDays).toBe(14);
  });

  it('can list a row whose sharing accounts come without their ids', async () => {
    sim.faults.listingOmits = { accountId: 200002, members: ['sharingObjectsAccounts.accountId'] };
    const staging = (await listAll()).find((a) => a.accountId === 200002);
    expect(staging.sharingObjectsAccounts).toEqual([
      { accountName: 'Production' },
      { accountName: 'QA Team' },
    ]);
    // Only the listing is shaped: the sharing itself is unchanged.
    expect(sim.accounts().find((a) => a.accountId === 200002)?.sharingObjectsAccounts).toEqual([
      200001, 200004,
    ]);
  });

  it('can list a Consumption-plan account: maxDailyGB null without being flexible', async () => {
    sim.faults.consumptionPlanAccount = 200002;
    const staging = (await list()).find((a) => a.accountId === 200002);
    expect(staging).toMatchObject({ maxDailyGB: null, isFlexible: false, isCapped: false });
    const { maxDailyGB: _cap, ...withoutCap } = fullBody(staging);
    const res = await call(sim, 'PUT', `${base}/200002`, { ...main, body: withoutCap });
    expect(res.status).toBe(204);
  });

  it('can spell snapsearchRetentionDays as the spec does in the listing', async () => {
    sim.faults.specSpelling = true;
    const [production] = await list();
    expect(production.snapsearchRetentionDays).toBe(90);
    expect(production).not.toHaveProperty('snapSearchRetentionDays');
  });

  it('forgets the switches on reset', async () => {
    Object.assign(sim.faults, {
      createAnswersEmpty: true,
      listingOmits: { accountId: 200001, members: ['accountName'] },
      consumptionPlanAccount: 200002,
      specSpelling: true,
    });
    sim.reset();
    expect(sim.faults).toMatchObject({
      createAnswersEmpty: undefined,
      listingOmits: undefined,
      consumptionPlanAccount: undefined,
      specSpelling: undefined,
    });
  });
});
