import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentApi,
  CapacityMoveError,
  type CapacityMoveLock,
  moveCapacity,
} from '../../src/agent-api/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { simClient, startTestSimulator } from './support/simulator.js';

/**
 * Capacity moves against the simulator, whose PUT is a true full replacement (an omitted field
 * falls back to its default), so a body that forgets a field shows up in its state.
 */

let sim: Simulator;
let api: AgentApi;
beforeAll(async () => {
  sim = await startTestSimulator();
  api = simClient(sim).api;
});
afterEach(() => sim.reset());
afterAll(() => sim.close());

const PRODUCTION = 200001;
const QA_TEAM = 200004;

const byId = (id: number) => sim.accounts().find((account) => account.accountId === id);
const withoutCapacity = (id: number) => {
  const { maxDailyGB: _gb, ...rest } = byId(id) ?? {};
  return rest;
};

async function refusal(promise: Promise<unknown>): Promise<CapacityMoveError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CapacityMoveError);
  return error as CapacityMoveError;
}

/** A lock that records its use. */
function testLock(free = true) {
  const events: string[] = [];
  const lock: CapacityMoveLock = {
    acquire: async () => {
      events.push('acquire');
      return free;
    },
    release: async () => {
      events.push('release');
    },
  };
  return { lock, events };
}

describe('moveCapacity', () => {
  it('lowers the donor first, raises the recipient, and reports the re-read listing', async () => {
    const untouched = [withoutCapacity(PRODUCTION), withoutCapacity(QA_TEAM)];
    const { lock, events } = testLock();
    const result = await moveCapacity(api, { gb: 5, from: 'production', to: 'qa team' }, { lock });
    expect(result).toEqual({
      from: { accountId: PRODUCTION, accountName: 'Production', before: 50, after: 45 },
      to: { accountId: QA_TEAM, accountName: 'QA Team', before: 8, after: 13 },
    });
    expect(sim.putLog.map((entry) => entry.accountId)).toEqual([PRODUCTION, QA_TEAM]);
    // Every other setting survived the full replacements, fields the seed does not name included.
    expect([withoutCapacity(PRODUCTION), withoutCapacity(QA_TEAM)]).toStrictEqual(untouched);
    expect(events).toEqual(['acquire', 'release']);
    expect(sim.requests.map((request) => request.method)).toEqual(['GET', 'PUT', 'PUT', 'GET']);
  });

  it('sends the listing’s fields back, unknown ones too, with sharing accounts as ids', async () => {
    await moveCapacity(api, { gb: 1, from: String(PRODUCTION), to: '200002' });
    const [donorPut] = sim.putLog;
    expect(donorPut?.body).toStrictEqual({
      accountName: 'Production',
      maxDailyGB: 49,
      retentionDays: 30,
      searchable: true,
      accessible: true,
      docSizeSetting: true,
      sharingObjectsAccounts: [200002],
      utilizationSettings: { frequencyMinutes: 15, utilizationEnabled: true },
      reservedDailyGB: 40,
      isFlexible: true,
      softLimitGB: 45,
      snapSearchRetentionDays: 90,
    });
    expect(sim.putLog[1]?.body).toMatchObject({
      accountName: 'Staging',
      maxDailyGB: 21,
      sharingObjectsAccounts: [200001, 200004],
    });
  });

  it('moves decimal GB without float noise', async () => {
    await moveCapacity(api, { gb: 0.1, from: 'QA Team', to: 'Production' });
    const result = await moveCapacity(api, { gb: 0.2, from: 'QA Team', to: 'Production' });
    expect(result.from.after).toBe(7.7);
    expect(result.to.after).toBe(50.3);
  });

  it.each([
    [{ gb: 1, from: 'nobody', to: 'Production' }, 'unknown_account'],
    [{ gb: 1, from: 'staging', to: 'Production' }, 'ambiguous_account'],
    [{ gb: 1, from: 'Production', to: String(PRODUCTION) }, 'same_account'],
    [{ gb: 9, from: 'QA Team', to: 'Production' }, 'insufficient_capacity'],
  ])('refuses %j with %s before any write', async (request, reason) => {
    expect((await refusal(moveCapacity(api, request))).reason).toBe(reason);
    expect(sim.putLog).toHaveLength(0);
    expect(sim.requests.map((entry) => entry.method)).toEqual(['GET']);
  });

  it('names the candidates of an ambiguous account', async () => {
    const error = await refusal(moveCapacity(api, { gb: 1, from: 'Production', to: 'STAGING' }));
    expect(error.candidates).toEqual([
      { accountId: 200002, accountName: 'Staging' },
      { accountId: 200003, accountName: 'staging' },
    ]);
  });

  it('refuses an invalid amount without a single request or the lock', async () => {
    const { lock, events } = testLock();
    expect(
      (await refusal(moveCapacity(api, { gb: -2, from: 'Production', to: 'QA Team' }, { lock }))).reason,
    ).toBe('invalid_amount');
    expect([sim.requests.length, events.length]).toEqual([0, 0]);
  });

  it('refuses while another move holds the lock', async () => {
    const { lock, events } = testLock(false);
    expect(
      (await refusal(moveCapacity(api, { gb: 1, from: 'Production', to: 'QA Team' }, { lock }))).reason,
    ).toBe('busy');
    expect(sim.requests).toHaveLength(0);
    expect(events).toEqual(['acquire']);
  });

  it('restores the donor when raising the recipient fails', async () => {
    sim.faults.failPutForAccount = QA_TEAM;
    const { lock, events } = testLock();
    const error = await refusal(moveCapacity(api, { gb: 5, from: 'Production', to: 'QA Team' }, { lock }));
    expect(error).toMatchObject({ reason: 'second_update_failed', restored: true });
    expect(error.cause).toMatchObject({ code: 'http_error', status: 500 });
    expect(sim.putLog.map((entry) => entry.accountId)).toEqual([PRODUCTION, QA_TEAM, PRODUCTION]);
    expect([byId(PRODUCTION)?.maxDailyGB, byId(QA_TEAM)?.maxDailyGB]).toEqual([50, 8]);
    expect(events).toEqual(['acquire', 'release']);
  });

  it('says so when the restore fails too', async () => {
    sim.faults.failPutForAccount = QA_TEAM;
    // After the recipient's PUT fails, the donor's PUTs start failing as well.
    const flaky: Pick<AgentApi, 'listSubAccounts' | 'updateSubAccount'> = {
      listSubAccounts: () => api.listSubAccounts(),
      updateSubAccount: async (accountId, body) => {
        try {
          await api.updateSubAccount(accountId, body);
        } finally {
          if (accountId === QA_TEAM) sim.faults.failPutForAccount = PRODUCTION;
        }
      },
    };
    const error = await refusal(moveCapacity(flaky, { gb: 5, from: 'Production', to: 'QA Team' }));
    expect(error).toMatchObject({ reason: 'second_update_failed', restored: false });
    expect(error.restoreError).toMatchObject({ status: 500 });
    expect(error.message).toMatch(/left at 45 GB/);
    expect(byId(PRODUCTION)?.maxDailyGB).toBe(45);
  });

  it('verify_failed when the listing cannot be re-read after both updates', async () => {
    let lists = 0;
    const breaking: Pick<AgentApi, 'listSubAccounts' | 'updateSubAccount'> = {
      listSubAccounts: () => {
        lists += 1;
        if (lists === 2) sim.faults.malformed = '/account-management';
        return api.listSubAccounts();
      },
      updateSubAccount: (accountId, body) => api.updateSubAccount(accountId, body),
    };
    const error = await refusal(moveCapacity(breaking, { gb: 5, from: 'Production', to: 'QA Team' }));
    expect(error.reason).toBe('verify_failed');
    expect(error.cause).toMatchObject({ code: 'invalid_response' });
  });
});
