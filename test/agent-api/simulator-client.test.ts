import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, SIM_TOKENS, type Simulator, simDirective } from '../../dev/simulator/index.js';
import {
  type AgentApi,
  AgentApiError,
  type CompleteSubAccount,
  InvalidResponseError,
  missingMembers,
  RegionMismatchError,
  SAVED_OBJECT_TYPES,
} from '../../src/agent-api/index.js';
import { buildUpdateBody } from '../../src/capacity/index.js';
import { TERMINAL_STATUSES } from '../../src/conversation/ports.js';
import { rejectionOf } from './support/rejection.js';
import { simClient, startTestSimulator } from './support/simulator.js';

/** Every client method against the service simulator (a real HTTP server on port 0). */

let sim: Simulator;
let api: AgentApi;
beforeAll(async () => {
  sim = await startTestSimulator();
  api = simClient(sim).api;
});
afterEach(() => sim.reset());
afterAll(() => sim.close());

async function pollUntilTerminal(sessionId: string, agentId: string = SIM_AGENTS.api) {
  for (let polls = 0; polls < 50; polls += 1) {
    const report = await api.getRunStatus(agentId, sessionId);
    if (TERMINAL_STATUSES.has(report.status)) return report;
  }
  throw new Error('run did not finish');
}

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, AgentApiError);

describe('runs', () => {
  it('starts a run, polls it to done, and follows up in the same session', async () => {
    const prompt = `why is checkout slow? ${simDirective({ steps: 2, stepMs: 10, outcome: 'done' })}`;
    const { sessionId } = await api.startRun(SIM_AGENTS.api, {
      message: prompt,
      additionalContext: 'prod only',
    });
    const final = await pollUntilTerminal(sessionId);
    expect(final).toMatchObject({ status: 'done', totalSteps: 2 });
    expect(final.message).toEqual(expect.any(String));

    const next = await api.followUp(SIM_AGENTS.api, sessionId, {
      message: `and now? ${simDirective({ steps: 1, stepMs: 10, outcome: 'error' })}`,
    });
    expect(next.sessionId).toBe(sessionId);
    expect(await pollUntilTerminal(sessionId)).toMatchObject({ status: 'error' });
    expect(sim.run(sessionId)?.prompts).toHaveLength(2);
  });

  it('reports a long poll with nothing new as status "timeout", not an error', async () => {
    const { sessionId } = await api.startRun(SIM_AGENTS.api, {
      message: simDirective({ steps: 1, stepMs: 5000, outcome: 'done' }),
    });
    const statuses = [
      await api.getRunStatus(SIM_AGENTS.api, sessionId),
      await api.getRunStatus(SIM_AGENTS.api, sessionId),
    ];
    expect(statuses.map((report) => report.status)).toEqual(['loading', 'timeout']);
  });

  it('refuses a follow-up while the turn runs (409 → turn_in_progress)', async () => {
    const { sessionId } = await api.startRun(SIM_AGENTS.api, {
      message: simDirective({ steps: 1, stepMs: 5000, outcome: 'done' }),
    });
    expect((await rejection(api.followUp(SIM_AGENTS.api, sessionId, { message: 'more' }))).code).toBe(
      'turn_in_progress',
    );
  });

  it('maps a 404 on a status (an unknown session) to agent_unavailable, as every agent-scoped 404', async () => {
    expect((await rejection(api.getRunStatus(SIM_AGENTS.api, 'no-such-session'))).code).toBe(
      'agent_unavailable',
    );
  });

  it('maintenance: run start is a 503 sent exactly once', async () => {
    sim.faults.maintenance = true;
    expect((await rejection(api.startRun(SIM_AGENTS.api, { message: 'hi' }))).code).toBe('maintenance');
    expect(sim.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });
});

describe('agent activation', () => {
  it('a disabled agent refuses runs until enabled, and can be disabled again', async () => {
    expect((await rejection(api.startRun(SIM_AGENTS.disabled, { message: 'hi' }))).code).toBe(
      'agent_disabled',
    );
    await expect(api.enableAgent(SIM_AGENTS.disabled)).resolves.toMatchObject({
      id: SIM_AGENTS.disabled,
      active: true,
    });
    await expect(api.startRun(SIM_AGENTS.disabled, { message: 'hi' })).resolves.toHaveProperty('sessionId');
    await expect(api.disableAgent(SIM_AGENTS.disabled)).resolves.toMatchObject({ active: false });
    expect((await rejection(api.startRun(SIM_AGENTS.disabled, { message: 'hi' }))).code).toBe(
      'agent_disabled',
    );
  });
});

describe('feedback', () => {
  it('stores boolean scores as 100/0, keeps the comment on update, and reads "none" as null', async () => {
    await expect(api.getFeedback(SIM_AGENTS.api, 'session-a')).resolves.toBeNull();
    const [created] = await api.submitFeedback(SIM_AGENTS.api, [
      { sessionId: 'session-a', feedbackName: 'slack-reaction', score: true, comment: 'spot on' },
    ]);
    expect(created).toMatchObject({
      sessionId: 'session-a',
      score: 100,
      comment: 'spot on',
      agentId: SIM_AGENTS.api,
    });
    await api.submitFeedback(SIM_AGENTS.api, [
      { sessionId: 'session-a', feedbackName: 'slack-reaction', score: false },
    ]);
    await expect(api.getFeedback(SIM_AGENTS.api, 'session-a')).resolves.toMatchObject({
      score: 0,
      comment: 'spot on',
    });
    expect(sim.feedback('session-a')).toMatchObject({ score: 0, comment: 'spot on' });
  });
});

describe('sub accounts', () => {
  it('lists accounts keeping fields the seed does not name, sharing accounts as objects', async () => {
    const accounts = await api.listSubAccounts();
    const production = accounts.find((account) => account.accountName === 'Production');
    expect(production).toMatchObject({
      reservedDailyGB: 40,
      isFlexible: true,
      softLimitGB: 45,
      snapSearchRetentionDays: 90,
    });
    expect(production?.sharingObjectsAccounts).toEqual([{ accountId: 200002, accountName: 'Staging' }]);
  });

  it('creates an account and updates it (204 and 200 both accepted)', async () => {
    const created = await api.createSubAccount({
      email: 'admin@example.com',
      accountName: 'Sandbox',
      retentionDays: 7,
      maxDailyGB: 1,
    });
    expect(created).toEqual({ accountId: expect.any(Number), accountToken: expect.any(String) });
    const listed = (await api.listSubAccounts()).find((account) => account.accountId === created.accountId);
    expect(listed).toMatchObject({ accountName: 'Sandbox', maxDailyGB: 1, email: null });
    await api.updateSubAccount(created.accountId as number, buildUpdateBody(listed as CompleteSubAccount, 2));
    expect(sim.accounts().find((account) => account.accountId === created.accountId)?.maxDailyGB).toBe(2);
  });

  it('accepts a 200 with an empty body from the PUT', async () => {
    const other = await startTestSimulator({ putStatus: 200 });
    try {
      const client = simClient(other).api;
      const [first] = await client.listSubAccounts();
      const account = first as CompleteSubAccount;
      await client.updateSubAccount(account.accountId, buildUpdateBody(account, account.maxDailyGB ?? 0));
      expect(other.requests.at(-1)).toMatchObject({ method: 'PUT', status: 200 });
    } finally {
      await other.close();
    }
  });

  it('uses the account path prefix when configured', async () => {
    const other = await startTestSimulator({ accountPathPrefix: '/v1' });
    try {
      const client = simClient(other, { accountPathPrefix: '/v1' }).api;
      await expect(client.listSubAccounts()).resolves.not.toHaveLength(0);
      await client.exportSavedObjects('search');
      // The vendor's spec path: no trailing slash under /v1 (with one, the simulator answers 404).
      expect(other.requests.map((request) => request.path)).toEqual([
        '/v1/account-management/time-based-accounts',
        '/v1/kibana/export',
      ]);
    } finally {
      await other.close();
    }
  });

  it('an agent-account token is refused by account management (403 → token_rejected)', async () => {
    const client = simClient(sim, { accountToken: SIM_TOKENS.agent }).api;
    expect((await rejection(client.listSubAccounts())).code).toBe('token_rejected');
  });
});

describe('export', () => {
  it.each(SAVED_OBJECT_TYPES)(
    '%s: raw is exactly what was served and parses deep-equal to it',
    async (type) => {
      const { parsed, raw } = await api.exportSavedObjects(type);
      const served = await fetch(`${sim.url}/kibana/export`, {
        method: 'POST',
        headers: { 'x-api-token': SIM_TOKENS.agent, 'content-type': 'application/json' },
        body: JSON.stringify({ type }),
      }).then((response) => response.text());
      expect(raw).toBe(served);
      expect(JSON.parse(raw)).toStrictEqual(parsed);
      expect(parsed.hits.every((hit) => (hit as { _source: { type: string } })._source.type === type)).toBe(
        true,
      );
    },
  );
});

describe('identity and token problems', () => {
  it('whoami names the account of the token', async () => {
    await expect(api.whoami()).resolves.toEqual({ accountId: 200001, accountName: 'Production' });
  });

  it('an invalid token: 401 on agent endpoints, 403 "Insufficient privileges" on whoami', async () => {
    const client = simClient(sim, { token: SIM_TOKENS.invalid }).api;
    expect(await rejection(client.startRun(SIM_AGENTS.api, { message: 'hi' }))).toMatchObject({
      code: 'token_rejected',
      status: 401,
    });
    expect(await rejection(client.whoami())).toMatchObject({
      code: 'token_rejected',
      status: 403,
      serviceMessage: 'Insufficient privileges',
    });
  });

  it('a token of another region → RegionMismatchError quoting both regions', async () => {
    const client = simClient(sim, { token: SIM_TOKENS.otherRegion }).api;
    const error = await rejection(client.whoami());
    expect(error).toBeInstanceOf(RegionMismatchError);
    expect(error).toMatchObject({ accountRegion: 'eu-central-1', serverRegion: 'us-east-1' });
  });

  it('a malformed 200 → InvalidResponseError naming the field', async () => {
    sim.faults.malformed = '/v2/whoami';
    const error = await rejection(api.whoami());
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues.join('\n')).toMatch(/^accountId: /m);
  });
});

describe('request budget against the simulator', () => {
  it('200 parallel calls never exceed the cap on the server', async () => {
    sim.faults.statusLatencyMs = 5;
    const { api: capped, budget } = simClient(sim);
    const calls = Array.from({ length: 200 }, (_, index) =>
      index % 4 === 0
        ? capped.whoami()
        : capped.getRunStatus(SIM_AGENTS.api, 'unknown-session').catch(() => 'none'),
    );
    await Promise.all(calls);
    expect(sim.requests).toHaveLength(200);
    expect(sim.maxInFlightSeen).toBeLessThanOrEqual(budget.limit);
    // The cap was actually reached: the test would notice a client that serialised everything.
    expect(budget.maxInFlightSeen()).toBe(budget.limit);
  });
});

describe('as the real service answers', () => {
  it('reads an uncapped account (maxDailyGB null) and the main account (isOwner)', async () => {
    const accounts = await api.listSubAccounts();
    expect(accounts.find((a) => a.accountName === 'Security')).toMatchObject({
      maxDailyGB: null,
      isFlexible: true,
    });
    expect(accounts.find((a) => a.isOwner === true)).toMatchObject({ accountId: 100000 });
  });

  it('creation sends sharingObjectsAccounts [] and takes an answer without a token as created', async () => {
    sim.faults.createWithoutToken = true;
    const created = await api.createSubAccount({
      email: 'admin@example.com',
      accountName: 'No Token',
      retentionDays: 7,
    });
    expect(created.accountToken).toBeUndefined();
    expect(sim.accounts().find((a) => a.accountId === created.accountId)?.accountName).toBe('No Token');
  });

  it('takes the spec-valid empty answers as empty, not invalid: whoami {}, export {}', async () => {
    sim.faults.whoamiAnswersEmpty = true;
    sim.faults.exportAnswersEmpty = true;
    expect(await rejection(api.whoami())).toMatchObject({ code: 'empty_answer', status: 200 });
    expect(await rejection(api.exportSavedObjects('search'))).toMatchObject({ code: 'empty_answer' });
  });

  it('lists an account whose sharing accounts come without ids, marked incomplete', async () => {
    sim.faults.listingOmits = { accountId: 200002, members: ['sharingObjectsAccounts.accountId'] };
    const staging = (await api.listSubAccounts()).find((a) => a.accountId === 200002);
    expect(staging?.sharingObjectsAccounts).toEqual([
      { accountName: 'Production' },
      { accountName: 'QA Team' },
    ]);
    expect(missingMembers(staging ?? {})).toEqual(['the id of a sharing account']);
  });

  it('backs up older-format export hits exactly as served', async () => {
    sim.faults.legacyExport = true;
    const { parsed, raw } = await api.exportSavedObjects('dashboard');
    expect(parsed.hits).toHaveLength(2);
    expect(JSON.parse(raw)).toStrictEqual(parsed);
    expect(raw).toContain('"_type":"doc"');
    expect(raw).toContain('"_logzioOriginalAppId":7');
  });

  it.each(['standard', 'message', 'errorMessage', 'string'] as const)(
    'reads the service message from a %s error body',
    async (shape) => {
      sim.faults.errorBodyShape = shape;
      const error = await rejection(
        api.createSubAccount({ email: 'nobody@example.com', accountName: 'X', retentionDays: 7 }),
      );
      expect(error.serviceMessage).toBe('email must belong to an admin user of the main account');
      expect(error.message).toContain('email must belong to an admin user');
    },
  );

  it('renders a structured-output answer (a JSON object) as a JSON code block', async () => {
    const { sessionId } = await api.startRun(SIM_AGENTS.structured, {
      message: simDirective({ steps: 0, stepMs: 0 }),
    });
    const report = await api.getRunStatus(SIM_AGENTS.structured, sessionId);
    expect(report.status).toBe('done');
    expect(report.message).toMatch(/^```json\n\{\n {2}"summary": /);
    expect(report.message).toMatch(/\n```$/);
    expect(JSON.parse((report.message ?? '').slice(8, -4))).toMatchObject({ severity: 'warning' });
  });
});
