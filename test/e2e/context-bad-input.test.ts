import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { alertMessage } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/** The bad input for thread context: each gives a run with sensible context, never a crash. */
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const CHANNEL = 'C0GENERAL';

describe('thread context with bad input', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('a thread of 1,000 messages, the newest 40,000 characters long: paged, within budget, root and newest kept', async () => {
    harness = await startHarness();
    const root = harness.slack.recordBotMessage(alertMessage(CHANNEL, 'Pager storm'));
    for (let index = 1; index < 1000; index += 1) {
      harness.slack.recordUserMessage({
        channel: CHANNEL,
        user: index % 3 ? 'UBOB' : 'UADMIN',
        text: `note ${index}`,
        thread_ts: root.ts,
      });
    }
    harness.slack.recordUserMessage({
      channel: CHANNEL,
      user: 'UBOB',
      text: `LAST ${'y'.repeat(40_000)}`,
      thread_ts: root.ts,
    });
    await harness.mention(`summarise? ${quick('Done.')}`, { threadTs: root.ts });
    await harness.waitForOutcome(CHANNEL, root.ts, 1, 20_000);
    const text = harness.sim.runs()[0]?.contexts[0]?.additionalContext ?? '';
    expect(text.length).toBeLessThanOrEqual(8000);
    expect(text).toContain('Pager storm');
    expect(text).toContain('person bob: LAST yyy');
    expect(text).toContain('… [cut]');
    expect(text).toMatch(/\(times in UTC; 999 of 1001 messages left out to fit\)/);
    // conversations.replies was paged (200 a page), not asked for everything at once.
    const reads = harness.slack.calls.filter((call) => call.method === 'conversations.replies');
    expect(reads.length).toBeGreaterThanOrEqual(6);
    expect(reads.every((call) => Number(call.args.limit) <= 200)).toBe(true);
  });

  it('attachments without text, unknown blocks, deleted and unknown users, control characters: readable lines, no crash', async () => {
    harness = await startHarness();
    harness.slack.addUser({ id: 'UGONE', name: 'gone.person', real_name: 'Gone Person', deleted: true });
    const root = harness.slack.recordBotMessage({
      channel: CHANNEL,
      username: 'Pingdom',
      attachments: [{ color: '#ff0000' }, { image_url: 'https://example.com/graph.png' }],
      blocks: [{ type: 'divider' }, { type: 'totally_new_block', elements: 'not an array' }],
    });
    harness.slack.recordUserMessage({ channel: CHANNEL, user: 'UGONE', text: 'I left', thread_ts: root.ts });
    // Slack does not know this author: nobody can say they are inside, so the line is left out (counted).
    harness.slack.recordUserMessage({
      channel: CHANNEL,
      user: 'UNOBODY',
      text: 'who am I?',
      thread_ts: root.ts,
    });
    harness.slack.recordUserMessage({
      channel: CHANNEL,
      user: 'UBOB',
      text: 'terminal colours \u001b[31mred\u001b[0m',
      thread_ts: root.ts,
    });
    await harness.mention(`why? ${quick('Ok.')}`, { threadTs: root.ts });
    await harness.waitForOutcome(CHANNEL, root.ts);
    const text = harness.sim.runs()[0]?.contexts[0]?.additionalContext ?? '';
    expect(text).toContain('integration Pingdom: (no text)');
    expect(text).toContain('person gone.person: I left');
    expect(text).toContain('1 message by people outside the organisation left out');
    expect(text).not.toContain('who am I?');
    expect(text).toContain('person bob: terminal colours [31mred[0m');
    expect(text).not.toContain('\u001b');
  });
});
