import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { call, errorBodyShape, startRun } from './sim-http.js';

// Margins are fractions of the hold and the step, not fixed milliseconds: "at once" means well
// before a held poll would answer, so a busy machine does not fail these.
const LONG_POLL_MS = 1000;
const STEP_MS = 400;
const AT_ONCE_MS = STEP_MS / 2;
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, longPollMs: LONG_POLL_MS });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const statusPath = (sessionId: string) => `/v2/ai-agent/${SIM_AGENTS.api}/${sessionId}`;

describe('status long poll', () => {
  it('answers the first poll at once, then holds until the next step and answers soon after it', async () => {
    const sessionId = await startRun(sim, simDirective({ steps: 3, stepMs: STEP_MS }));
    const first = await call(sim, 'GET', statusPath(sessionId));
    expect(first.body).toEqual({ status: 'loading', totalSteps: 0 });
    expect(first.ms).toBeLessThan(AT_ONCE_MS);
    const held = await call(sim, 'GET', statusPath(sessionId));
    const answeredAt = Date.now();
    expect(held.body).toEqual({ status: 'loading', totalSteps: 1 });
    const stepDueAt = (sim.run(sessionId)?.startedAt ?? 0) + STEP_MS;
    expect(answeredAt - stepDueAt).toBeGreaterThanOrEqual(0);
    // Woken by the step, not by the end of the hold (which would be LONG_POLL_MS after the poll).
    expect(answeredAt - stepDueAt).toBeLessThan((LONG_POLL_MS - STEP_MS) / 2);
  });

  it('holds about longPollMs and answers {status:"timeout"} when nothing changes', async () => {
    const sessionId = await startRun(sim, simDirective({ steps: 1, stepMs: 60_000 }));
    await call(sim, 'GET', statusPath(sessionId));
    const held = await call(sim, 'GET', statusPath(sessionId));
    expect(held.body).toEqual({ status: 'timeout' });
    expect(held.ms).toBeGreaterThanOrEqual(LONG_POLL_MS - 5);
    expect(held.ms).toBeLessThan(LONG_POLL_MS * 1.5);
  });

  it('answers a terminal status at once, on every later poll', async () => {
    const sessionId = await startRun(sim, simDirective({ steps: 0, stepMs: 0, answer: 'ready' }));
    for (let i = 0; i < 3; i += 1) {
      const res = await call(sim, 'GET', statusPath(sessionId));
      expect(res.body).toEqual({ status: 'done', message: 'ready', totalSteps: 0 });
      expect(res.ms).toBeLessThan(AT_ONCE_MS);
    }
  });

  it('answers 404 for an unknown session or a session of another agent', async () => {
    const sessionId = await startRun(sim, 'hi');
    for (const path of [statusPath('no-such-session'), `/v2/ai-agent/${SIM_AGENTS.alert}/${sessionId}`]) {
      const res = await call(sim, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBodyShape);
    }
  });

  it('stops holding when the client goes away', async () => {
    const sessionId = await startRun(sim, simDirective({ steps: 1, stepMs: 60_000 }));
    await call(sim, 'GET', statusPath(sessionId));
    const abort = new AbortController();
    const poll = call(sim, 'GET', statusPath(sessionId), { signal: abort.signal }).catch(() => 'aborted');
    await new Promise((r) => setTimeout(r, 50));
    expect(sim.inFlight()).toBe(1);
    abort.abort();
    expect(await poll).toBe('aborted');
    await new Promise((r) => setTimeout(r, 30));
    expect(sim.inFlight()).toBe(0);
  });
});

describe('close', () => {
  it('ends held long polls promptly', async () => {
    const other = await startSimulator({ quiet: true, longPollMs: 10_000 });
    const sessionId = await startRun(other, simDirective({ steps: 1, stepMs: 60_000 }));
    await call(other, 'GET', statusPath(sessionId));
    const started = performance.now();
    const poll = call(other, 'GET', statusPath(sessionId)).then((r) => r.body);
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await poll).toEqual({ status: 'timeout' });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
