import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_AGENTS, SIM_TOKENS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { call, errorBodyShape, runRequest } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, longPollMs: 200 });
});
afterAll(() => sim.close());

const accounts = '/account-management/time-based-accounts';
const start = `/v2/ai-agent/${SIM_AGENTS.api}`;

describe('agent endpoints', () => {
  it.each([
    ['missing', null],
    ['invalid', SIM_TOKENS.invalid],
    ['unknown', 'not-a-token'],
  ])('answer 401 with the error body to a %s token', async (_kind, token) => {
    const res = await call(sim, 'POST', start, { token, body: runRequest('hi') });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBodyShape);
  });

  it("accept the agent account's token only: the main account's is refused with 401 (seed, rule 2)", async () => {
    expect((await call(sim, 'POST', start, { body: runRequest('hi') })).status).toBe(200);
    const main = await call(sim, 'POST', start, { token: SIM_TOKENS.main, body: runRequest('hi') });
    expect(main.status).toBe(401);
    expect(main.body).toEqual(errorBodyShape);
    const enable = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}/enable`, {
      token: SIM_TOKENS.main,
    });
    expect(enable.status).toBe(401);
  });
});

describe('identity endpoint', () => {
  it('returns the account of the token', async () => {
    expect((await call(sim, 'GET', '/v2/whoami')).body).toEqual({
      accountId: 200001,
      accountName: 'Production',
    });
    const main = await call(sim, 'GET', '/v2/whoami', { token: SIM_TOKENS.main });
    expect(main.body).toEqual({ accountId: 100000, accountName: 'Sim Main Account' });
  });

  it("answers an invalid token with 403 and the seed's {code, message} body", async () => {
    const res = await call(sim, 'GET', '/v2/whoami', { token: SIM_TOKENS.invalid });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, message: 'Insufficient privileges' });
  });

  it('answers a missing token with 401', async () => {
    expect((await call(sim, 'GET', '/v2/whoami', { token: null })).status).toBe(401);
  });
});

describe('account management', () => {
  it('refuses the agent token with 403 and the error body', async () => {
    const res = await call(sim, 'GET', accounts);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorBodyShape);
  });

  it('refuses invalid and missing tokens with 401', async () => {
    expect((await call(sim, 'GET', accounts, { token: SIM_TOKENS.invalid })).status).toBe(401);
    expect((await call(sim, 'GET', accounts, { token: null })).status).toBe(401);
  });

  it('accepts the main-account token', async () => {
    expect((await call(sim, 'GET', accounts, { token: SIM_TOKENS.main })).status).toBe(200);
  });
});

describe('export endpoint', () => {
  it('accepts the agent token and refuses an invalid one with 401', async () => {
    expect((await call(sim, 'POST', '/kibana/export', { body: { type: 'search' } })).status).toBe(200);
    const res = await call(sim, 'POST', '/kibana/export', {
      token: SIM_TOKENS.invalid,
      body: { type: 'search' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorBodyShape);
  });
});

describe('a token of another region', () => {
  it.each([
    ['POST', start],
    ['GET', `${start}/some-session`],
    ['GET', '/v2/whoami'],
    ['GET', accounts],
    ['POST', '/kibana/export'],
    ['GET', '/no/such/path'],
  ])('is refused on %s %s with 400 and both regions in the text', async (method, path) => {
    const res = await call(sim, method, path, {
      token: SIM_TOKENS.otherRegion,
      ...(method === 'POST' && { body: {} }),
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Account region eu-central-1 differs from current server region us-east-1');
  });

  it("names the server's configured region", async () => {
    const eu = await startSimulator({ quiet: true, region: 'ap-southeast-2' });
    try {
      const res = await call(eu, 'GET', '/v2/whoami', { token: SIM_TOKENS.otherRegion });
      expect(res.text).toContain('differs from current server region ap-southeast-2');
    } finally {
      await eu.close();
    }
  });
});

describe('unknown paths', () => {
  it('answer 404 with the error body, also for a known path with the wrong method', async () => {
    for (const [method, path] of [
      ['GET', '/v3/nothing'],
      ['DELETE', start],
      ['GET', '/v1/account-management/time-based-accounts'],
    ] as const) {
      const res = await call(sim, method, path, { token: SIM_TOKENS.main });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual(errorBodyShape);
    }
  });
});

describe('request records', () => {
  it('name the token kind and never hold a raw token', async () => {
    await call(sim, 'GET', '/v2/whoami', { token: SIM_TOKENS.main });
    const last = sim.requests.at(-1);
    expect(last).toMatchObject({ method: 'GET', path: '/v2/whoami', status: 200, token: 'main' });
    const recorded = JSON.stringify(sim.requests);
    for (const token of Object.values(SIM_TOKENS)) expect(recorded).not.toContain(token);
  });
});
