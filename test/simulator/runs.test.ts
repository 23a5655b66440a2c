import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type Simulator, simDirective, startSimulator } from '../../dev/simulator/index.js';
import { call, errorBodyShape, pollToEnd, runRequest, startRun } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({
    quiet: true,
    longPollMs: 300,
    defaultScript: { steps: 1, stepMs: 20, outcome: 'done' },
  });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const fast = (d: Parameters<typeof simDirective>[0]) => simDirective({ steps: 2, stepMs: 20, ...d });

describe('run start', () => {
  it('answers started with a session id at once, however long the run', async () => {
    const res = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, {
      body: runRequest(`slow ${simDirective({ steps: 100, stepMs: 10_000 })}`),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'started', sessionId: expect.any(String) });
    expect(res.ms).toBeLessThan(1000); // the run itself takes over 16 minutes
    expect(sim.run(res.body.sessionId)).toMatchObject({ status: 'loading', totalSteps: 0, turns: 1 });
  });

  it.each([
    ['no body', undefined],
    ['an array', []],
    ['no context', { message: 'hi' }],
    ['a non-string message', { context: { message: 42 } }],
    [
      'a timerange without endTime',
      { context: { message: 'hi', timerange: { startTime: '2024-05-01T00:00:00Z' } } },
    ],
    ['a non-array security', { context: { message: 'hi', security: {} } }],
  ])('refuses %s with 400 and the error body', async (_name, body) => {
    const res = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
  });

  it('accepts the optional fields of the seed', async () => {
    const body = {
      context: {
        message: 'hi',
        additionalContext: 'prod only',
        timerange: { startTime: '2024-05-01T00:00:00Z', endTime: '2024-05-01T01:00:00Z' },
        security: [{ filter: { field: 'env', value: 'prod' } }],
      },
      integrations: [],
    };
    expect((await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, { body })).status).toBe(200);
  });
});

describe('agents', () => {
  it('refuses a run on a disabled API agent or an unknown agent with 404', async () => {
    for (const agentId of [SIM_AGENTS.disabled, 'no-such-agent']) {
      const res = await call(sim, 'POST', `/v2/ai-agent/${agentId}`, { body: runRequest('hi') });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(errorBodyShape);
    }
  });

  it('runs a disabled Alert agent', async () => {
    const sessionId = await startRun(sim, 'alert!', SIM_AGENTS.alert);
    expect(sim.run(sessionId)?.agentId).toBe(SIM_AGENTS.alert);
  });

  it('enables and disables with {id, active} and the change takes effect', async () => {
    const enable = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.disabled}/enable`);
    expect(enable.body).toEqual({ id: SIM_AGENTS.disabled, active: true });
    await startRun(sim, 'now it runs', SIM_AGENTS.disabled);
    const disable = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}/disable`);
    expect(disable.body).toEqual({ id: SIM_AGENTS.api, active: false });
    expect(
      (await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, { body: runRequest('x') })).status,
    ).toBe(404);
    expect((await call(sim, 'POST', '/v2/ai-agent/no-such-agent/enable')).status).toBe(404);
  });

  it('setAgentActive switches an agent from the test side and throws on an unknown id', async () => {
    sim.setAgentActive(SIM_AGENTS.api, false);
    expect(
      (await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, { body: runRequest('x') })).status,
    ).toBe(404);
    expect(() => sim.setAgentActive('nope', true)).toThrow(/unknown/);
  });
});

describe('run scripts', () => {
  it('grows totalSteps 1..steps while loading, then ends done with an answer', async () => {
    const sessionId = await startRun(sim, `count ${simDirective({ steps: 3, stepMs: 40 })}`);
    const seen = await pollToEnd(sim, sessionId);
    const loading = seen.filter((s) => s.status === 'loading').map((s) => s.totalSteps);
    expect(loading).toEqual([0, 1, 2, 3]);
    expect(seen.at(-1)).toEqual({ status: 'done', message: expect.stringContaining('count'), totalSteps: 3 });
    expect(sim.run(sessionId)).toMatchObject({
      status: 'done',
      totalSteps: 3,
      finishedAt: expect.any(Number),
    });
  });

  it('ends in error with a reason, or canceled without a message', async () => {
    const failed = await pollToEnd(sim, await startRun(sim, fast({ outcome: 'error' })));
    expect(failed.at(-1)).toEqual({
      status: 'error',
      message: expect.stringMatching(/failure/),
      totalSteps: 2,
    });
    const canceled = await pollToEnd(sim, await startRun(sim, fast({ outcome: 'canceled' })));
    expect(canceled.at(-1)).toEqual({ status: 'canceled', totalSteps: 2 });
  });

  it('uses a literal answer, also as an error reason', async () => {
    const done = await pollToEnd(sim, await startRun(sim, fast({ answer: 'exactly this' })));
    expect(done.at(-1).message).toBe('exactly this');
    const failed = await pollToEnd(
      sim,
      await startRun(sim, fast({ outcome: 'error', answer: 'quota exceeded' })),
    );
    expect(failed.at(-1).message).toBe('quota exceeded');
  });

  it('makes a sized answer exactly that long, of varied Markdown with balanced code fences', async () => {
    const seen = await pollToEnd(sim, await startRun(sim, fast({ size: 60_000 })));
    const answer: string = seen.at(-1).message;
    expect(answer).toHaveLength(60_000);
    expect(answer).toMatch(/^## /m);
    expect(answer).toMatch(/^- /m);
    expect(answer).toContain('\n\n');
    expect(answer.match(/^```/gm)?.length ?? 0).toBeGreaterThan(2);
    expect((answer.match(/^```/gm)?.length ?? 0) % 2).toBe(0);
    for (const size of [1, 5, 13, 500, 4001]) {
      const small = await pollToEnd(sim, await startRun(sim, simDirective({ steps: 0, stepMs: 0, size })));
      expect(small.at(-1).message).toHaveLength(size);
    }
  });

  it('echoes the Slack control sequences a mention asks for', async () => {
    const mention = ['channel', 'here', 'everyone', 'user', 'channelref', 'link'] as const;
    const seen = await pollToEnd(
      sim,
      await startRun(sim, simDirective({ steps: 0, stepMs: 0, mention: [...mention] })),
    );
    const answer: string = seen.at(-1).message;
    for (const seq of [
      '<!channel>',
      '<!here>',
      '<!everyone>',
      '<@U0SIMUSER1>',
      '<#C0SIMCHAN1>',
      '|click here>',
    ]) {
      expect(answer).toContain(seq);
    }
  });

  it('fails the turn with the reason when the directive is broken', async () => {
    const seen = await pollToEnd(sim, await startRun(sim, '[sim steps=many]'));
    expect(seen.at(-1)).toMatchObject({ status: 'error', message: expect.stringContaining('steps must be') });
  });

  it('follows the default script when the message has no directive', async () => {
    const other = await startSimulator({
      quiet: true,
      defaultScript: { steps: 1, stepMs: 10, outcome: 'canceled' },
    });
    try {
      const seen = await pollToEnd(other, await startRun(other, 'plain question'));
      expect(seen.at(-1)).toEqual({ status: 'canceled', totalSteps: 1 });
    } finally {
      await other.close();
    }
  });

  it('keeps many runs cheap: state comes from the clock, not timers', async () => {
    const started = performance.now();
    for (let batch = 0; batch < 4; batch += 1) {
      await Promise.all(
        Array.from({ length: 50 }, () => startRun(sim, simDirective({ steps: 5, stepMs: 60_000 }))),
      );
    }
    const views = sim.runs();
    expect(views).toHaveLength(200);
    expect(views.every((v) => v.status === 'loading')).toBe(true);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('follow-ups', () => {
  it('are refused with 409 while the turn runs, then start a new turn on the same session', async () => {
    const sessionId = await startRun(sim, fast({ steps: 2, stepMs: 40 }));
    const path = `/v2/ai-agent/${SIM_AGENTS.api}/${sessionId}`;
    const early = await call(sim, 'POST', path, { body: runRequest('too soon') });
    expect(early.status).toBe(409);
    expect(early.body).toEqual(errorBodyShape);
    await pollToEnd(sim, sessionId);
    const next = await call(sim, 'POST', path, {
      body: runRequest(`second ${fast({ answer: 'turn two' })}`),
    });
    expect(next.body).toEqual({ status: 'started', sessionId });
    const seen = await pollToEnd(sim, sessionId);
    expect(seen.at(-1)).toEqual({ status: 'done', message: 'turn two', totalSteps: 2 });
    expect(sim.run(sessionId)).toMatchObject({
      turns: 2,
      prompts: [expect.any(String), expect.stringMatching(/^second/)],
    });
  });

  it('answer 404 for an unknown session or a session of another agent', async () => {
    const sessionId = await startRun(sim, fast({ steps: 0, stepMs: 0 }));
    for (const path of [
      `/v2/ai-agent/${SIM_AGENTS.api}/nope`,
      `/v2/ai-agent/${SIM_AGENTS.alert}/${sessionId}`,
    ]) {
      expect((await call(sim, 'POST', path, { body: runRequest('x') })).status).toBe(404);
    }
  });
});

describe('stale status after a follow-up', () => {
  it("reports the previous turn's final status during the window, then the new turn", async () => {
    const stale = await startSimulator({ quiet: true, longPollMs: 1000, staleAfterFollowUpMs: 250 });
    try {
      const sessionId = await startRun(stale, simDirective({ steps: 1, stepMs: 10, answer: 'first' }));
      const first = (await pollToEnd(stale, sessionId)).at(-1);
      const path = `/v2/ai-agent/${SIM_AGENTS.api}/${sessionId}`;
      await call(stale, 'POST', path, {
        body: runRequest(simDirective({ steps: 3, stepMs: 10, answer: 'second' })),
      });
      const right = await call(stale, 'GET', path);
      expect(right.body).toEqual(first);
      // The stale status is not repeated at once: the next poll waits for the window to end.
      const after = await call(stale, 'GET', path);
      expect(after.ms).toBeGreaterThan(150);
      expect(after.body).not.toEqual(first);
      expect((await pollToEnd(stale, sessionId)).at(-1)).toEqual({
        status: 'done',
        message: 'second',
        totalSteps: 3,
      });
    } finally {
      await stale.close();
    }
  });
});
