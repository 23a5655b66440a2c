import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import type { StoredMessage } from '../../dev/slack-standin/index.js';
import { FEEDBACK_PROBLEMS } from '../../src/slack/views/feedback.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { postInteraction, viewSubmissionPayload } from '../support/slack-events.js';

const answersIn = (harness: Harness, channel: string, threadTs: string) =>
  harness.slack.messages(channel, threadTs).filter((m) => m.metadata?.event_type === 'agent_answer');

const feedbackBlocks = (message: StoredMessage | undefined) =>
  (message?.blocks ?? []).filter((block) => block.type === 'context_actions');

describe('native feedback buttons', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('puts 👍 / 👎 with accessibility labels on the last part of a split answer only', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(
      `long ${simDirective({ steps: 1, stepMs: 20, size: 25_000 })}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const parts = answersIn(harness, channel, threadTs);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.slice(0, -1).flatMap(feedbackBlocks)).toEqual([]);
    const [block] = feedbackBlocks(parts.at(-1));
    expect(block?.elements).toEqual([
      expect.objectContaining({
        type: 'feedback_buttons',
        positive_button: expect.objectContaining({ accessibility_label: expect.stringMatching(/helpful/) }),
        negative_button: expect.objectContaining({
          accessibility_label: expect.stringMatching(/not helpful/),
        }),
      }),
    ]);
    // The stand-in checks context_actions / feedback_buttons as Slack does: every post was accepted.
    expect(harness.slack.calls.filter((call) => !call.ok)).toEqual([]);
  });

  it('records a click as true / false on the session, latest wins across buttons and reactions', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `rate me ${simDirective({ steps: 1, stepMs: 20, answer: 'Yes.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    const [answer] = answersIn(h, channel, threadTs);
    if (!answer) throw new Error('no answer');

    const clicked = await h.clickFeedback(answer, false);
    expect(clicked.status).toBe(200);
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 0, { description: 'score 0 from 👎' });
    const thanks = await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UALICE').at(-1), {
      description: 'the ephemeral thanks',
    });
    expect(thanks.thread_ts).toBe(threadTs);
    expect(JSON.stringify(thanks.blocks)).toContain('Add a comment');

    await h.react(channel, answer.ts, '+1', 'UBOB');
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 100, {
      description: 'a 👍 reaction wins',
    });
    await h.clickFeedback(answer, false, { user: 'UBOB' });
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 0, {
      description: 'the later 👎 click wins',
    });
    expect(h.sim.feedback(sessionId)?.feedbackName).toBe('slack-reaction');
  });

  it('rates the turn an older answer belongs to after the thread moved on', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `one ${simDirective({ steps: 1, stepMs: 20, answer: 'First.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    await h.reply(`two ${simDirective({ steps: 1, stepMs: 20, answer: 'Second.' })}`, { threadTs });
    await h.waitForOutcome(channel, threadTs, 2);
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    const [first] = answersIn(h, channel, threadTs);
    if (!first) throw new Error('no first answer');
    await h.clickFeedback(first, true);
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 100, {
      description: 'the old answer rated',
    });
  });

  it('a click by an outsider records nothing, nor does their comment', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `shared ${simDirective({ steps: 1, stepMs: 20, answer: 'Internal.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    const [answer] = answersIn(h, channel, threadTs);
    if (!answer) throw new Error('no answer');
    await h.clickFeedback(answer, true);
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 100, {
      description: 'the insider rating',
    });
    const posts = () =>
      h.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/feedback')).length;
    const before = posts();
    // Slack Connect: the person's own workspace is another organisation's.
    const outsider = { user: 'UEXTERNAL', userTeam: 'T0OTHERORG' };
    expect((await h.clickFeedback(answer, false, outsider)).status).toBe(200);
    const refusal = await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UEXTERNAL').at(-1), {
      description: 'the refusal, shown to the outsider only',
    });
    expect(refusal.text).toMatch(/only people of this workspace's organisation can rate/);
    expect(JSON.stringify(refusal.blocks ?? [])).not.toContain('Add a comment');
    // A comment form submitted by the outsider anyway records nothing either.
    const form = viewSubmissionPayload({
      ...outsider,
      view: {
        type: 'modal',
        callback_id: 'answer_feedback_comment_form',
        private_metadata: JSON.stringify({ c: channel, t: answer.ts, th: threadTs }),
      },
      values: { comment: { comment_input: 'leaked opinion' } },
    });
    expect((await postInteraction(h.appUrl, h.signingSecret, form)).status).toBe(200);
    await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UEXTERNAL').length >= 2, {
      description: 'the second refusal',
    });
    expect(posts()).toBe(before);
    expect(h.sim.feedback(sessionId)).toMatchObject({ score: 100 });
    expect(h.sim.feedback(sessionId)?.comment).toBeUndefined();
  });

  it('sends a comment written in the form with the session rating', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `numbers ${simDirective({ steps: 1, stepMs: 20, answer: '42.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    const [answer] = answersIn(h, channel, threadTs);
    if (!answer) throw new Error('no answer');
    await h.clickFeedback(answer, false);
    await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UALICE').at(-1), { description: 'the thanks' });
    await h.clickAddComment(channel);
    const opened = await h.slack.waitFor(() => h.slack.openedViews().at(-1), {
      description: 'the comment form',
    });
    expect(opened.view).toMatchObject({ type: 'modal', callback_id: expect.any(String) });
    const submitted = await h.submitForm('the numbers are wrong');
    expect(submitted.status).toBe(200);
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.comment === 'the numbers are wrong', {
      description: 'the comment at the service',
    });
    expect(h.sim.feedback(sessionId)?.score).toBe(0);
    await h.slack.waitFor(
      () => h.slack.ephemerals(channel, 'UALICE').some((e) => e.text.includes('comment was sent')),
      { description: 'the confirmation' },
    );
  });

  it('rates the right run when the click comes after Slack showed the answer but before it was indexed', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `quick ${simDirective({ steps: 3, stepMs: 300, answer: 'Early.' })}`,
    );
    await h.slack.waitFor(() => h.slack.calls.some((call) => call.method === 'assistant.threads.setStatus'), {
      description: 'the run under way',
    });
    expect(h.slack.calls.filter((call) => call.method === 'chat.postMessage')).toEqual([]);
    // Slack takes the answer but its reply never reaches the bot: the answer is visible and not
    // indexed, for as long as the test likes (deterministic, however slow the machine).
    h.slack.leaveUnansweredNext('chat.postMessage');
    const answer = await h.slack.waitFor(() => answersIn(h, channel, threadTs)[0], {
      description: 'the answer, shown but not yet indexed',
    });
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    expect((await h.clickFeedback(answer, true)).status).toBe(200);
    await h.slack.waitFor(() => h.sim.feedback(sessionId)?.score === 100, {
      description: 'the early 👍 on the session of its run',
    });
    const thanks = await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UALICE').at(-1), {
      description: 'the thanks',
    });
    expect(thanks.text).not.toBe(FEEDBACK_PROBLEMS['not-an-answer']);
    // The unanswered post is still pending: closing the stand-in ends it so the bot stops at once.
    await h.slack.close();
  });

  it('still says it cannot find the run for a message that is no answer', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `real ${simDirective({ steps: 1, stepMs: 20, answer: 'Real.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    const [answer] = answersIn(h, channel, threadTs);
    if (!answer) throw new Error('no answer');
    // The same buttons on a message the bot never indexed, naming a turn it never had.
    const stranger = JSON.parse(
      JSON.stringify(answer).replace(
        /(positive|negative):[0-9a-f-]+/g,
        '$1:00000000-0000-4000-8000-000000000000',
      ),
    ) as StoredMessage;
    stranger.ts = '1.000001';
    expect((await h.clickFeedback(stranger, true)).status).toBe(200);
    const reply = await h.slack.waitFor(() => h.slack.ephemerals(channel, 'UALICE').at(-1), {
      description: 'the refusal',
    });
    expect(reply.text).toBe(FEEDBACK_PROBLEMS['not-an-answer']);
    expect(h.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/feedback'))).toEqual([]);
  });
});
