import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import { call, errorBodyShape, pollToEnd, runRequest, startRun } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, longPollMs: 300, maxConcurrent: 3 });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const agentPath = `/v2/ai-agent/${SIM_AGENTS.api}`;
const instant = simDirective({ steps: 0, stepMs: 0 });

describe('maintenance', () => {
  it('answers 503 to run starts and follow-ups while status polls still work', async () => {
    const sessionId = await startRun(sim, instant);
    await pollToEnd(sim, sessionId);
    sim.faults.maintenance = true;
    const start = await call(sim, 'POST', agentPath, { body: runRequest('x') });
    expect(start.status).toBe(503);
    expect(start.body).toEqual(errorBodyShape);
    expect((await call(sim, 'POST', `${agentPath}/${sessionId}`, { body: runRequest('x') })).status).toBe(
      503,
    );
    expect((await call(sim, 'GET', `${agentPath}/${sessionId}`)).status).toBe(200);
    sim.faults.maintenance = false;
    expect((await call(sim, 'POST', agentPath, { body: runRequest('x') })).status).toBe(200);
  });
});

describe('status errors', () => {
  it('fail every poll at rate 1, with 500 in the error shape or a 502 page', async () => {
    const sessionId = await startRun(sim, instant);
    sim.faults.statusErrorRate = 1;
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i += 1) {
      const res = await call(sim, 'GET', `${agentPath}/${sessionId}`);
      statuses.add(res.status);
      if (res.status === 500) expect(res.body).toEqual(errorBodyShape);
      if (res.status === 502) expect(res.headers.get('content-type')).toContain('text/html');
    }
    expect([...statuses].sort()).toEqual([500, 502]);
  });

  it('fail a repeatable share of polls for a given seed', async () => {
    const sequence = async (s: Simulator) => {
      s.faults.statusErrorRate = 0.5;
      const sessionId = await startRun(s, instant);
      const out: number[] = [];
      for (let i = 0; i < 30; i += 1) out.push((await call(s, 'GET', `${agentPath}/${sessionId}`)).status);
      return out;
    };
    const a = await startSimulator({ quiet: true, seed: 7 });
    const b = await startSimulator({ quiet: true, seed: 7 });
    try {
      const first = await sequence(a);
      expect(await sequence(b)).toEqual(first);
      expect(first.filter((s) => s === 200).length).toBeGreaterThan(5);
      expect(first.filter((s) => s !== 200).length).toBeGreaterThan(5);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('status latency', () => {
  it('delays status polls', async () => {
    const sessionId = await startRun(sim, instant);
    sim.faults.statusLatencyMs = 150;
    const res = await call(sim, 'GET', `${agentPath}/${sessionId}`);
    expect(res.body.status).toBe('done');
    expect(res.ms).toBeGreaterThanOrEqual(145);
  });
});

describe('concurrency limit', () => {
  it('answers 429 with Retry-After: 1 beyond maxConcurrent and records the peak', async () => {
    const sessionId = await startRun(sim, simDirective({ steps: 1, stepMs: 60_000 }));
    await call(sim, 'GET', `${agentPath}/${sessionId}`);
    const held = Array.from({ length: 3 }, () => call(sim, 'GET', `${agentPath}/${sessionId}`));
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.inFlight()).toBe(3);
    const refused = await call(sim, 'GET', '/v2/whoami');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toEqual(errorBodyShape);
    expect(sim.maxInFlightSeen).toBe(4);
    for (const res of await Promise.all(held)) expect(res.body).toEqual({ status: 'timeout' });
    expect(sim.inFlight()).toBe(0);
  });
});

describe('failing PUT', () => {
  it('answers 500 for that account only and changes nothing', async () => {
    const main = { token: SIM_TOKENS.main };
    const before = sim.accounts();
    sim.faults.failPutForAccount = 200002;
    const base = '/account-management/time-based-accounts';
    const failed = await call(sim, 'PUT', `${base}/200002`, {
      ...main,
      body: { accountName: 'Staging', sharingObjectsAccounts: [] },
    });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual(errorBodyShape);
    expect(sim.accounts()).toEqual(before);
    expect(sim.putLog).toHaveLength(1);
    expect(
      (
        await call(sim, 'PUT', `${base}/200004`, {
          ...main,
          body: { accountName: 'QA Team', sharingObjectsAccounts: [] },
        })
      ).status,
    ).toBe(204);
  });
});

describe('malformed responses', () => {
  it('break the body of paths under the prefix with a 200 only there', async () => {
    sim.faults.malformed = '/v2/whoami';
    const broken = await call(sim, 'GET', '/v2/whoami');
    expect(broken.status).toBe(200);
    expect(broken.body).toEqual({ status: 42 });
    expect((await call(sim, 'POST', agentPath, { body: runRequest('x') })).body.status).toBe('started');
    sim.faults.malformed = '/v2/ai-agent';
    expect((await call(sim, 'POST', agentPath, { body: runRequest('x') })).body).toEqual({ status: 42 });
  });
});

describe('reset', () => {
  it('clears runs, records and faults and restores the seeded state', async () => {
    await startRun(sim, 'x');
    sim.faults.maintenance = true;
    sim.setAgentActive(SIM_AGENTS.api, false);
    sim.reset();
    expect(sim.runs()).toEqual([]);
    expect(sim.requests).toEqual([]);
    expect(sim.faults).toMatchObject({ maintenance: false, statusErrorRate: 0, statusLatencyMs: 0 });
    expect((await call(sim, 'POST', agentPath, { body: runRequest('x') })).status).toBe(200);
  });
});

describe('scripted account and export answers', () => {
  const main = { token: SIM_TOKENS.main };
  const base = '/account-management/time-based-accounts';

  it('failPutAfterApplyForAccount applies the PUT, then answers 500', async () => {
    sim.faults.failPutAfterApplyForAccount = 200004;
    const res = await call(sim, 'PUT', `${base}/200004`, {
      ...main,
      body: { accountName: 'QA Team', maxDailyGB: 3, sharingObjectsAccounts: [] },
    });
    expect(res.status).toBe(500);
    expect(sim.accounts().find((a) => a.accountId === 200004)?.maxDailyGB).toBe(3);
  });

  it('failListingsAfter serves that many listings, then answers 500', async () => {
    sim.faults.failListingsAfter = 1;
    expect((await call(sim, 'GET', `${base}/`, main)).status).toBe(200);
    expect((await call(sim, 'GET', `${base}/`, main)).status).toBe(500);
    sim.reset();
    expect((await call(sim, 'GET', `${base}/`, main)).status).toBe(200);
  });

  it('legacyExport serves older-format hits', async () => {
    sim.faults.legacyExport = true;
    const res = await call(sim, 'POST', '/kibana/export', { body: { type: 'dashboard' } });
    expect(res.status).toBe(200);
    const [first, second] = res.body.hits;
    expect(first._type).toBe('doc');
    expect(first._source).not.toHaveProperty('type');
    expect(first._source._updatedAt).toEqual(expect.any(Number));
    expect(first._source.dashboard._logzioOriginalAppId).toBe(7);
    expect(second).not.toHaveProperty('_index');
    expect(second).not.toHaveProperty('_id');
  });

  it('exportAnswersEmpty answers {} (both members of the spec’s export answer are optional)', async () => {
    sim.faults.exportAnswersEmpty = true;
    const res = await call(sim, 'POST', '/kibana/export', { body: { type: 'dashboard' } });
    expect([res.status, res.body]).toEqual([200, {}]);
    // A request the spec refuses is still refused.
    expect((await call(sim, 'POST', '/kibana/export', { body: { type: 'query' } })).status).toBe(400);
  });

  it('whoamiAnswersEmpty answers {} to a good token, and still 403 to a bad one', async () => {
    sim.faults.whoamiAnswersEmpty = true;
    const res = await call(sim, 'GET', '/v2/whoami');
    expect([res.status, res.body]).toEqual([200, {}]);
    expect((await call(sim, 'GET', '/v2/whoami', { token: SIM_TOKENS.invalid })).status).toBe(403);
    sim.reset();
    expect((await call(sim, 'GET', '/v2/whoami')).body).toHaveProperty('accountId');
  });

  it.each([
    ['message', (message: string) => ({ message })],
    ['errorMessage', (message: string) => ({ errorMessage: message })],
    ['string', (message: string) => message],
  ] as const)('errorBodyShape %s rewrites the usual error body', async (shape, expected) => {
    sim.faults.errorBodyShape = shape;
    const res = await call(sim, 'POST', '/kibana/export', { body: { type: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected('type must be one of search, visualization, dashboard'));
    // whoami's own {code, message} body is not the usual shape: left as it is.
    const who = await call(sim, 'GET', '/v2/whoami', { token: SIM_TOKENS.invalid });
    expect(who.body).toEqual({ code: 403, message: 'Insufficient privileges' });
  });
});

describe('structured output', () => {
  it('the structured agent answers a done run with a JSON object as its message', async () => {
    const started = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.structured}`, {
      body: runRequest(instant),
    });
    const sessionId = started.body.sessionId as string;
    const done = await call(sim, 'GET', `/v2/ai-agent/${SIM_AGENTS.structured}/${sessionId}`);
    expect(done.body.status).toBe('done');
    expect(done.body.message).toMatchObject({ summary: expect.any(String), findings: expect.any(Array) });
  });
});

describe('agentTokenAs', () => {
  it('turns the agent token invalid or foreign while the simulator runs', async () => {
    sim.faults.agentTokenAs = 'invalid';
    expect((await call(sim, 'GET', '/v2/whoami')).status).toBe(403);
    sim.faults.agentTokenAs = 'otherRegion';
    expect((await call(sim, 'GET', '/v2/whoami')).body.message).toMatch(/^Account region /);
    sim.reset();
    expect((await call(sim, 'GET', '/v2/whoami')).status).toBe(200);
  });
});

describe('feedbackRecordDrift', () => {
  it('answers feedback with drifted record fields while storing the rating', async () => {
    sim.faults.feedbackRecordDrift = true;
    const res = await call(sim, 'POST', `${agentPath}/feedback`, {
      body: [{ sessionId: 's-1', feedbackName: 'f', score: true }],
    });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ id: expect.any(Number), score: '100', accountId: '200001' });
    expect(res.body[0]).not.toHaveProperty('agentId');
    expect(sim.feedback('s-1')?.score).toBe(100);
  });
});
