import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../dev/simulator/index.js';
import { type AgentApi, missingMembers } from '../../src/agent-api/index.js';
import { CapacityMoveError, moveCapacity } from '../../src/capacity/index.js';
import { rejectionOf } from './support/rejection.js';
import { simClient, startTestSimulator } from './support/simulator.js';

/**
 * The client against the simulator answering as the vendor's published OpenAPI file does:
 * strict about what it is sent, loose in what it answers (DESIGN, "Checked against the vendor's
 * OpenAPI file").
 */

let sim: Simulator;
let api: AgentApi;
beforeAll(async () => {
  sim = await startTestSimulator();
  api = simClient(sim).api;
});
afterEach(() => sim.reset());
afterAll(() => sim.close());

const refusal = (promise: Promise<unknown>) => rejectionOf(promise, CapacityMoveError);

describe('PUT bodies carry no null the account did not set', () => {
  it('a move from and to accounts with unset members (null in the listing) goes through', async () => {
    // QA Team lists reservedDailyGB, softLimitGB and snapSearchRetentionDays as null.
    const result = await moveCapacity(api, { gb: 1, from: 'QA Team', to: 'Staging' });
    expect(result.from).toMatchObject({ before: 8, after: 7 });
    const [donorPut] = sim.putLog;
    expect(donorPut?.body).not.toHaveProperty('reservedDailyGB');
    expect(donorPut?.body).not.toHaveProperty('softLimitGB');
    expect(JSON.stringify(sim.putLog.map((entry) => entry.body))).not.toContain('null');
    expect(sim.requests.filter((request) => request.method === 'PUT').map((r) => r.status)).toEqual([
      204, 204,
    ]);
    expect(sim.accounts().find((account) => account.accountName === 'QA Team')).toMatchObject({
      maxDailyGB: 7,
      reservedDailyGB: null,
      softLimitGB: null,
    });
  });

  it('sends the snap retention back in the spelling the listing used', async () => {
    sim.faults.specSpelling = true;
    await moveCapacity(api, { gb: 1, from: 'Production', to: 'Staging' });
    expect(sim.putLog[0]?.body).toMatchObject({ snapsearchRetentionDays: 90 });
    expect(sim.putLog[0]?.body).not.toHaveProperty('snapSearchRetentionDays');
    expect(sim.accounts().find((account) => account.accountId === 200001)?.snapSearchRetentionDays).toBe(90);
  });
});

describe('the listing', () => {
  it('without a prefix: the seed’s path with its trailing slash', async () => {
    await api.listSubAccounts();
    expect(sim.requests.map((request) => request.path)).toEqual(['/account-management/time-based-accounts/']);
  });

  it('under /v1: the spec’s path without one, which the simulator serves (and 404s with it)', async () => {
    const v1 = await startTestSimulator({ accountPathPrefix: '/v1' });
    try {
      const client = simClient(v1, { accountPathPrefix: '/v1' }).api;
      await expect(client.listSubAccounts()).resolves.toHaveLength(5);
      await moveCapacity(client, { gb: 1, from: 'Production', to: 'QA Team' });
      expect(v1.requests.map((request) => `${request.method} ${request.path} ${request.status}`)).toEqual([
        'GET /v1/account-management/time-based-accounts 200',
        'GET /v1/account-management/time-based-accounts 200',
        'PUT /v1/account-management/time-based-accounts/200001 204',
        'PUT /v1/account-management/time-based-accounts/200004 204',
        'GET /v1/account-management/time-based-accounts 200',
      ]);
    } finally {
      await v1.close();
    }
  });

  it('an incomplete row does not sink the listing, and is never updated', async () => {
    sim.faults.listingOmits = { accountId: 200002, members: ['retentionDays', 'sharingObjectsAccounts'] };
    const accounts = await api.listSubAccounts();
    expect(accounts).toHaveLength(5);
    const staging = accounts.find((account) => account.accountId === 200002);
    expect(staging).toMatchObject({ accountName: 'Staging', maxDailyGB: 20 });
    expect(missingMembers(staging ?? {})).toEqual(['retentionDays', 'sharingObjectsAccounts']);
    const refused = await refusal(moveCapacity(api, { gb: 1, from: 'Production', to: 'Staging' }));
    expect(refused.reason).toBe('incomplete_account');
    expect(sim.putLog).toEqual([]);
  });

  it('a Consumption-plan account (maxDailyGB null, not flexible) never takes part in a move', async () => {
    sim.faults.consumptionPlanAccount = 200002;
    const staging = (await api.listSubAccounts()).find((account) => account.accountId === 200002);
    expect(staging).toMatchObject({ maxDailyGB: null, isFlexible: false });
    const refused = await refusal(moveCapacity(api, { gb: 1, from: 'Staging', to: 'Production' }));
    expect(refused.reason).toBe('no_daily_cap');
    expect(refused.message).toContain('Staging (200002) has no daily cap (consumption plan)');
    expect(sim.putLog).toEqual([]);
  });
});

describe('creation', () => {
  it('{} from the service is a created account: no id, no token, no retry', async () => {
    sim.faults.createAnswersEmpty = true;
    const created = await api.createSubAccount({
      email: 'admin@example.com',
      accountName: 'Quiet',
      retentionDays: 7,
    });
    expect(created).toEqual({ accountId: undefined, accountToken: undefined });
    expect(sim.requests.map((request) => request.method)).toEqual(['POST']);
    expect(sim.accounts().filter((account) => account.accountName === 'Quiet')).toHaveLength(1);
  });

  it.each([
    [{ email: 'admin@example', retentionDays: 7 }, 'admin@example'],
    [{ email: 'admin@example.com', retentionDays: 2_147_483_648 }, '2147483648'],
    [{ email: 'admin@example.com', retentionDays: 7, maxDailyGB: 2_147_483_648 }, '2147483648'],
  ])('%j is refused before sending, naming %s', async (values, named) => {
    const failure = await api
      .createSubAccount({ accountName: 'Nope', ...values })
      .catch((error: unknown) => error as Error);
    expect(failure).toMatchObject({ code: 'invalid_input' });
    expect((failure as Error).message).toContain(named);
    expect(sim.requests).toEqual([]);
  });
});
