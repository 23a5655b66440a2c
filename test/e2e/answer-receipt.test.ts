import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import type { StoredMessage } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { WINDOW_PATTERN } from '../support/looked-at.js';

type Card = { type: string; task_id?: string; title?: string; status?: string; details?: unknown };

/** The message's first block (the receipt) and the words of its details. */
function receiptOf(message: StoredMessage | undefined) {
  const card = (message?.blocks?.[0] ?? {}) as Card;
  const section = (card.details as { elements?: Array<{ elements?: Array<{ text?: string }> }> } | undefined)
    ?.elements?.[0];
  return { card, details: section?.elements?.map((element) => element.text ?? '').join('') ?? '' };
}

describe('the answer receipt', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('begins an answer with a complete task_card naming the steps, the time and the window', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `what happened in the last 2 hours? ${simDirective({ steps: 3, stepMs: 20, answer: 'Disk filled up.' })}`,
    );
    const [answer] = await h.waitForOutcome(channel, threadTs);
    const { card, details } = receiptOf(answer);
    const turnId = answer?.metadata?.event_payload?.turn_id;
    expect(card).toMatchObject({ type: 'task_card', status: 'complete', title: 'Agent run complete' });
    expect(card.task_id).toBe(turnId);
    expect(details).toMatch(new RegExp(`^3 steps · took \\d+ s · looked at ${WINDOW_PATTERN}$`));
    // The fallback text says the same words, before the answer.
    expect(answer?.text?.startsWith(`Agent run complete — ${details}\n\n`)).toBe(true);
    expect(answer?.text).toContain('Disk filled up.');
    expect(h.visibleText(answer ?? {})).toContain('Disk filled up.');
  });

  it('says when no window was given', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `status? ${simDirective({ steps: 1, stepMs: 20, answer: 'OK.' })}`,
    );
    const [answer] = await h.waitForOutcome(channel, threadTs);
    expect(receiptOf(answer).details).toMatch(/^1 step · took \d+ s · time range: the agent's default$/);
  });

  it.each([
    ['error', 'Agent run failed', /couldn't finish/],
    ['canceled', 'Agent run canceled', /canceled/],
  ] as const)('begins a %s notice with an error task_card', async (outcome, title, words) => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(`go ${simDirective({ steps: 2, stepMs: 20, outcome })}`);
    const [notice] = await h.waitForOutcome(channel, threadTs);
    expect(notice?.metadata?.event_type).toBe('agent_notice');
    const { card, details } = receiptOf(notice);
    expect(card).toMatchObject({ type: 'task_card', status: 'error', title });
    expect(details).toMatch(/took \d+ s/);
    expect(notice?.text?.startsWith(`${title} — ${details}\n`)).toBe(true);
    expect(notice?.text).toMatch(words);
  });

  it('begins the deadline notice with an error task_card carrying the steps seen', async () => {
    harness = await startHarness({ env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '0' } });
    const h = harness;
    const { channel, threadTs } = await h.mention(`forever ${simDirective({ steps: 100, stepMs: 150 })}`);
    const [notice] = await h.waitForOutcome(channel, threadTs, 1, 15_000);
    const { card, details } = receiptOf(notice);
    expect(card).toMatchObject({
      type: 'task_card',
      status: 'error',
      title: 'Stopped waiting for the agent',
    });
    expect(details).toMatch(/^\d+ steps? · took \d+ s · /);
    expect(notice?.text).toMatch(/stopped waiting/i);
  });
});
