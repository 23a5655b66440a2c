import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  parseDirective,
  SIM_AGENTS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import { call, pollToEnd } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true, longPollMs: 300 });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const range = { startTime: '2026-11-23T12:05:00Z', endTime: '2026-11-23T13:05:00Z' };

describe('the context a run received', () => {
  it('is recorded per turn: additionalContext and timerange as sent, nothing when absent', async () => {
    const started = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, {
      body: {
        context: {
          message: `why? ${simDirective({ steps: 0, stepMs: 10 })}`,
          additionalContext: 'Datadog: CPU high',
          timerange: range,
        },
      },
    });
    const sessionId = started.body.sessionId as string;
    await pollToEnd(sim, sessionId);
    await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}/${sessionId}`, {
      body: { context: { message: `and? ${simDirective({ steps: 0, stepMs: 10 })}` } },
    });
    expect(sim.run(sessionId)?.contexts).toEqual([
      { additionalContext: 'Datadog: CPU high', timerange: range },
      {},
    ]);
  });

  it('echo=context ends the answer with what the run was given', async () => {
    const started = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}`, {
      body: {
        context: {
          message: `why? ${simDirective({ steps: 0, stepMs: 10, echo: 'context' })}`,
          additionalContext: 'line one\n```\nfenced',
          timerange: range,
        },
      },
    });
    const final = (await pollToEnd(sim, started.body.sessionId)).at(-1);
    expect(final.status).toBe('done');
    expect(final.message).toContain('**What the agent was given**');
    expect(final.message).toContain('Time range: 2026-11-23T12:05:00Z → 2026-11-23T13:05:00Z');
    expect(final.message).toContain('line one');
    // A fence in the context cannot close the echo's own code block early.
    expect(final.message.match(/```/g)).toHaveLength(2);
  });

  it('parses echo=context and refuses any other echo', () => {
    expect(parseDirective('[sim echo=context]')).toMatchObject({ ok: true, directive: { echo: 'context' } });
    expect(parseDirective('[sim echo=prompt]')).toMatchObject({ ok: false });
    expect(simDirective({ echo: 'context' })).toBe('[sim echo=context]');
  });
});
