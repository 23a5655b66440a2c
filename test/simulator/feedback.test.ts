import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { call, errorBodyShape } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true });
});
beforeEach(() => sim.reset());
afterAll(() => sim.close());

const submit = (body: unknown, agentId: string = SIM_AGENTS.api) =>
  call(sim, 'POST', `/v2/ai-agent/${agentId}/feedback`, { body });
const read = (sessionId: string, agentId: string = SIM_AGENTS.api) =>
  call(sim, 'GET', `/v2/ai-agent/${agentId}/feedback/${sessionId}`);

describe('feedback', () => {
  it('stores a boolean score as 100 or 0 and returns full records', async () => {
    const res = await submit([
      { sessionId: 's-1', feedbackName: 'thumbs', score: true, comment: 'great' },
      { sessionId: 's-2', feedbackName: 'thumbs', score: false },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        agentId: SIM_AGENTS.api,
        accountId: 200001,
        sessionId: 's-1',
        feedbackName: 'thumbs',
        score: 100,
        comment: 'great',
      },
      expect.objectContaining({ sessionId: 's-2', score: 0 }),
    ]);
    expect(Number.isNaN(Date.parse(res.body[0].createdAt))).toBe(false);
    expect((await read('s-1')).body).toEqual(res.body[0]);
    expect(sim.feedback('s-2')?.score).toBe(0);
  });

  it('keeps numeric scores as given', async () => {
    expect((await submit([{ sessionId: 's-n', feedbackName: 'rating', score: 42.5 }])).body[0].score).toBe(
      42.5,
    );
  });

  it('updates the one record of a session, keeping the comment when it is omitted', async () => {
    const [created] = (
      await submit([{ sessionId: 's-1', feedbackName: 'thumbs', score: true, comment: 'keep' }])
    ).body;
    const [updated] = (await submit([{ sessionId: 's-1', feedbackName: 'thumbs', score: false }])).body;
    expect(updated).toEqual({ ...created, score: 0, comment: 'keep' });
    const [replaced] = (
      await submit([{ sessionId: 's-1', feedbackName: 'thumbs', score: 7, comment: 'new' }])
    ).body;
    expect(replaced).toMatchObject({ id: created.id, score: 7, comment: 'new' });
  });

  it.each([
    ['an object', { sessionId: 's', feedbackName: 'f', score: 1 }],
    ['an empty array', []],
    ['a missing sessionId', [{ feedbackName: 'f', score: 1 }]],
    ['an empty feedbackName', [{ sessionId: 's', feedbackName: '', score: 1 }]],
    ['a string score', [{ sessionId: 's', feedbackName: 'f', score: '100' }]],
    ['a numeric comment', [{ sessionId: 's', feedbackName: 'f', score: 1, comment: 5 }]],
  ])('refuses %s with 400 and stores nothing', async (_name, body) => {
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
    expect(sim.feedback('s')).toBeUndefined();
  });

  it('refuses a body that is not JSON', async () => {
    const res = await call(sim, 'POST', `/v2/ai-agent/${SIM_AGENTS.api}/feedback`, { rawBody: '[{oops' });
    expect(res.status).toBe(400);
  });

  it('answers 404 for a session without feedback, or feedback read under another agent', async () => {
    await submit([{ sessionId: 's-1', feedbackName: 'thumbs', score: true }]);
    expect((await read('s-none')).status).toBe(404);
    const other = await read('s-1', SIM_AGENTS.alert);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(errorBodyShape);
  });
});
