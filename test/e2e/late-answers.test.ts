import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

const byType = (harness: Harness, channel: string, threadTs: string, type: string) =>
  harness.slack.messages(channel, threadTs).filter((message) => message.metadata?.event_type === type);

/** Follow-up requests the service received (POST to a session). */
const followUps = (harness: Harness, sessionId: string) =>
  harness.sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${sessionId}`));

const noticeSaying = (harness: Harness, channel: string, threadTs: string, pattern: RegExp) =>
  harness.slack.waitFor(
    () =>
      byType(harness, channel, threadTs, 'agent_notice').find((m) => pattern.test(harness.visibleText(m))),
    { timeoutMs: 10_000, description: `a notice matching ${pattern}` },
  );

const busyRefusals = (harness: Harness, channel: string, user: string) =>
  harness.slack.ephemerals(channel, user).filter((e) => /still working on the previous message/.test(e.text));

describe('past the turn deadline', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('keeps watching: a reply meanwhile is refused with how long, the late answer lands once, then replies follow up', async () => {
    harness = await startHarness({ env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '1' } });
    const { channel, threadTs } = await harness.mention(
      `slow ${simDirective({ steps: 12, stepMs: 300, answer: 'Finally here.' })}`,
    );
    const notice = await noticeSaying(harness, channel, threadTs, /still working after/);
    expect(harness.visibleText(notice)).toMatch(/keep an eye on it for up to 1 min/);
    // It does not end the turn: tools waiting for an outcome can tell.
    expect(notice.metadata?.event_payload).toMatchObject({ notice: 'deadline', final: false });
    // The indicator went with the notice.
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_progress').length === 0, {
      description: 'no progress message',
    });
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    expect(harness.sim.runs()[0]?.status).toBe('loading');
    await harness.reply('any news?', { threadTs, user: 'UBOB' });
    const [refusal] = await harness.slack.waitFor(
      () => {
        const found = busyRefusals(harness, channel, 'UBOB');
        return found.length > 0 ? found : undefined;
      },
      { description: 'the busy refusal' },
    );
    expect(refusal?.text).toMatch(/at it for \d+ s/);
    expect(followUps(harness, sessionId)).toHaveLength(0);

    const [late] = await harness.slack.waitFor(
      () => {
        const answers = byType(harness, channel, threadTs, 'agent_answer');
        return answers.length > 0 ? answers : undefined;
      },
      { timeoutMs: 15_000, description: 'the late answer' },
    );
    expect(harness.visibleText(late ?? {})).toMatch(/Late answer — the agent took \d+ s/);
    expect(harness.visibleText(late ?? {})).toContain('Finally here.');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(byType(harness, channel, threadTs, 'agent_answer')).toHaveLength(1);
    expect(followUps(harness, sessionId)).toHaveLength(0);

    await harness.reply(`and now? ${simDirective({ steps: 1, stepMs: 20, answer: 'Quick one.' })}`, {
      threadTs,
    });
    await harness.slack.waitFor(() => byType(harness, channel, threadTs, 'agent_answer').length === 2, {
      description: 'the follow-up answer',
    });
    expect(followUps(harness, sessionId)).toHaveLength(1);
    expect(followUps(harness, sessionId)[0]?.status).toBe(200);
    expect(harness.sim.runs()[0]?.turns).toBe(2);
  }, 40_000);

  it('after the watch ends, a reply reads the run first: busy while it works, a follow-up once it is done', async () => {
    harness = await startHarness({
      env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '0.02' },
    });
    const { channel, threadTs } = await harness.mention(
      `very slow ${simDirective({ steps: 15, stepMs: 300, answer: 'Too late for the watch.' })}`,
    );
    await noticeSaying(harness, channel, threadTs, /still working after/);
    await noticeSaying(harness, channel, threadTs, /stopped watching after/);
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    expect(harness.sim.runs()[0]?.status).toBe('loading');

    await harness.reply('still there?', { threadTs, user: 'UBOB' });
    await harness.slack.waitFor(() => busyRefusals(harness, channel, 'UBOB').length === 1, {
      description: 'the busy refusal after reading the run',
    });
    expect(followUps(harness, sessionId)).toHaveLength(0);

    await harness.slack.waitFor(() => harness.sim.runs()[0]?.status === 'done', {
      timeoutMs: 10_000,
      description: 'the run done',
    });
    await harness.reply(`what did you find? ${simDirective({ steps: 1, stepMs: 20, answer: 'Second.' })}`, {
      threadTs,
    });
    const [answer] = await harness.slack.waitFor(
      () => {
        const answers = byType(harness, channel, threadTs, 'agent_answer');
        return answers.length > 0 ? answers : undefined;
      },
      { description: 'the follow-up answer' },
    );
    // The stale rule holds: the run's own late answer is not taken for the follow-up's.
    expect(harness.visibleText(answer ?? {})).toContain('Second.');
    expect(followUps(harness, sessionId).map((r) => r.status)).toEqual([200]);
  }, 40_000);

  it('with the late watch off, the deadline ends the turn and a reply while the run works is refused', async () => {
    harness = await startHarness({ env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '0' } });
    const { channel, threadTs } = await harness.mention(
      `forever ${simDirective({ steps: 50, stepMs: 200 })}`,
    );
    await noticeSaying(harness, channel, threadTs, /stopped waiting after/);
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    await harness.reply('hello?', { threadTs, user: 'UBOB' });
    await harness.slack.waitFor(() => busyRefusals(harness, channel, 'UBOB').length === 1, {
      description: 'the busy refusal',
    });
    expect(followUps(harness, sessionId)).toHaveLength(0);
  });
});
