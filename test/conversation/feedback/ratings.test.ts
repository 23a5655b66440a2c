import { describe, expect, it } from 'vitest';
import { createRatings } from '../../../src/conversation/feedback/ratings.js';
import type { AgentRunsPort, FeedbackInput } from '../../../src/conversation/ports.js';
import type { AnswerRef } from '../../../src/conversation/turn/turn-records.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { memoryLogger } from '../../support/memory-log.js';

/**
 * Ratings from every entry path go through one inside check, then to the service the answer came
 * from (its connection, in its thread's installation), and are kept as the session's current rating.
 */
const ANSWER: AnswerRef = {
  threadKey: 'T1:C1:100.1',
  agentId: 'agent-a',
  sessionId: 's-1',
  turnId: 'turn-1',
};

function harness(options: { outsider?: boolean; serviceFails?: boolean } = {}) {
  const store = createMemoryStore();
  const sent: { on: string; agentId: string; items: FeedbackInput[] }[] = [];
  const serviceOf = (on: string): AgentRunsPort =>
    ({
      submitFeedback: async (agentId: string, items: FeedbackInput[]) => {
        if (options.serviceFails) throw new Error('service down');
        sent.push({ on, agentId, items });
      },
    }) as AgentRunsPort;
  const rated: AnswerRef[] = [];
  const log = memoryLogger('info');
  const ratings = createRatings({
    store,
    agent: serviceOf('default'),
    connections: { on: (connection, teamId) => serviceOf(`${connection}@${teamId}`) },
    logger: log.logger,
    inside: {
      check: async () =>
        options.outsider
          ? { inside: false, reason: 'other-organisation', refusal: 'external-user' }
          : { inside: true },
      judgeWorkspace: () => 'inside',
    },
    settings: { feedbackName: 'thumbs', positiveEmoji: ['+1'], negativeEmoji: ['-1'] },
    onRated: (answer) => void rated.push(answer),
  });
  return { store, ratings, sent, rated, log };
}

const person = { userId: 'UALICE' };

describe('ratings', () => {
  it('sends a click to the service its answer came from and keeps it as the session rating', async () => {
    const t = harness();
    const answer = { ...ANSWER, connection: 'eu-prod' };
    await t.store.indexAnswer('C1', '200.1', answer);
    expect(await t.ratings.onButton({ channel: 'C1', ts: '200.1', score: false, person })).toBe('submitted');
    expect(t.sent).toEqual([
      {
        on: 'eu-prod@T1',
        agentId: 'agent-a',
        items: [{ sessionId: 's-1', feedbackName: 'thumbs', score: false }],
      },
    ]);
    expect(await t.store.getRating('s-1')).toBe(false);
    expect(t.rated).toEqual([answer]);
  });

  it('sends a comment with the session rating, and refuses one before any rating', async () => {
    const t = harness();
    await t.store.indexAnswer('C1', '200.1', ANSWER);
    const comment = { channel: 'C1', ts: '200.1', comment: 'missed the cause', person };
    expect(await t.ratings.onComment(comment)).toBe('no-rating');
    expect(await t.ratings.onReaction({ channel: 'C1', ts: '200.1', reaction: '+1', userId: 'UALICE' })).toBe(
      'submitted',
    );
    expect(await t.ratings.onComment(comment)).toBe('submitted');
    expect(t.sent.map((call) => [call.on, call.items[0]?.score, call.items[0]?.comment])).toEqual([
      ['default', true, undefined],
      ['default', true, 'missed the cause'],
    ]);
  });

  it('ignores an outsider before anything reaches the service, and reports a failed send', async () => {
    const outsider = harness({ outsider: true });
    expect(await outsider.ratings.rate({ answer: ANSWER, score: true, person })).toBe('outsider');
    expect(outsider.sent).toEqual([]);
    expect(await outsider.store.getRating('s-1')).toBeUndefined();
    const failing = harness({ serviceFails: true });
    expect(await failing.ratings.rate({ answer: ANSWER, score: true, person })).toBe('failed');
    expect(await failing.store.getRating('s-1')).toBeUndefined();
    expect(failing.rated).toEqual([]);
    expect(failing.log.records().map((record) => record.msg)).toContain('feedback failed');
  });
});
