import { describe, expect, it } from 'vitest';
import type { TurnNotice } from '../../../src/conversation/thread-output-port.js';
import type { TurnReceipt } from '../../../src/conversation/turn/turn-receipt.js';
import { renderNotice } from '../../../src/slack/views/notices.js';
import {
  noticeWithReceipt,
  type ReceiptSubject,
  receiptDetails,
  renderReceipt,
} from '../../../src/slack/views/receipt.js';
import { renderAnswer, renderPlainAnswer } from '../../../src/slack/views/render-answer.js';

const RANGE = { startTime: '2026-11-23T13:05:00.000Z', endTime: '2026-11-23T14:05:00.000Z' };
const detailsText = (view: ReturnType<typeof renderReceipt>) =>
  (view.block.details?.elements[0] as { elements?: Array<{ text: string }> } | undefined)?.elements?.[0]
    ?.text;

describe('receiptDetails', () => {
  it.each<[string, TurnReceipt, string]>([
    [
      'steps, time and window',
      { steps: 5, tookMs: 125_000, timerange: RANGE },
      '5 steps · took 2 min 5 s · looked at 13:05–14:05 UTC (2026-11-23)',
    ],
    ['one step', { steps: 1, tookMs: 4_000 }, "1 step · took 4 s · time range: the agent's default"],
    ['no steps known', { tookMs: 61_000 }, "took 1 min 1 s · time range: the agent's default"],
    [
      'a window over two days',
      { tookMs: 0, timerange: { startTime: '2026-11-22T23:00:00Z', endTime: '2026-11-23T01:00:00Z' } },
      'took 0 s · looked at 2026-11-22 23:00 – 2026-11-23 01:00 UTC',
    ],
  ])('%s', (_name, receipt, expected) => {
    expect(receiptDetails(receipt)).toBe(expected);
  });
});

describe('renderReceipt', () => {
  const receipt: TurnReceipt = { steps: 3, tookMs: 42_000, timerange: RANGE };
  it.each<[string, ReceiptSubject, string, string]>([
    ['an answer', { kind: 'answer' }, 'Agent run complete', 'complete'],
    ['a late answer', { kind: 'answer', late: true }, 'Agent run complete (late)', 'complete'],
    [
      'a run error',
      { kind: 'notice', notice: { kind: 'run-error', reason: 'x' } },
      'Agent run failed',
      'error',
    ],
    ['a cancel', { kind: 'notice', notice: { kind: 'canceled' } }, 'Agent run canceled', 'error'],
    [
      'the deadline',
      { kind: 'notice', notice: { kind: 'deadline', waitedMs: 1 } },
      'Stopped waiting for the agent',
      'error',
    ],
    [
      'the deadline with a late watch',
      { kind: 'notice', notice: { kind: 'deadline', waitedMs: 1, watchForMs: 5 } },
      'Agent still working',
      'in_progress',
    ],
    [
      'the end of the watch',
      { kind: 'notice', notice: { kind: 'watch-ended', waitedMs: 1 } },
      'Stopped watching the agent run',
      'error',
    ],
    [
      'a service error',
      { kind: 'notice', notice: { kind: 'service-error', error: new Error('x'), referenceId: 'r1' } },
      'Agent service error',
      'error',
    ],
    ['a lost turn', { kind: 'notice', notice: { kind: 'lost-turn' } }, 'Request lost in a restart', 'error'],
  ])('%s: a task_card titled and with the status', (_name, subject, title, status) => {
    const view = renderReceipt(subject, receipt, 'turn-1');
    expect(view.block).toMatchObject({ type: 'task_card', task_id: 'turn-1', title, status });
    expect(detailsText(view)).toBe('3 steps · took 42 s · looked at 13:05–14:05 UTC (2026-11-23)');
    // The fallback says what the card shows.
    expect(view.text).toBe(`${title} — ${detailsText(view)}`);
  });
});

describe('receipts on answers and notices', () => {
  const view = renderReceipt({ kind: 'answer' }, { steps: 2, tookMs: 9_000 }, 't');

  it('puts the card on the first part only, and its words first in that part’s text', () => {
    const rendered = renderAnswer(`${'a'.repeat(9_000)}\n\n${'b'.repeat(9_000)}`, { receipt: view });
    expect(rendered.messages.length).toBe(2);
    const [first, second] = rendered.messages;
    expect(first?.receipt).toEqual(view.block);
    expect(first?.text.startsWith(`${view.text}\n\n`)).toBe(true);
    expect(first?.text.length).toBeLessThanOrEqual(3_000);
    expect(second?.receipt).toBeUndefined();
    expect(second?.text).not.toContain(view.text);
    // The markdown stays the first of `blocks`: the card goes before them when posted.
    expect(first?.blocks[0]?.type).toBe('markdown');
  });

  it('leads the plain rendering with the same words', () => {
    const [message] = renderPlainAnswer('Fine.', { receipt: view, note: 'Late.' }).messages;
    expect(message?.text).toBe(`${view.text}\n\nLate.\n\nFine.`);
  });

  it.each<TurnNotice>([{ kind: 'canceled' }, { kind: 'run-error', reason: 'boom' }, { kind: 'lost-turn' }])(
    'a %o notice begins with its card, and its text with the card’s words',
    (notice) => {
      const card = renderReceipt({ kind: 'notice', notice }, { tookMs: 1_000 }, 't');
      const plain = renderNotice(notice);
      const withCard = noticeWithReceipt(plain, card);
      expect(withCard.blocks).toEqual([card.block, ...plain.blocks]);
      expect(withCard.text).toBe(`${card.text}\n${plain.text}`);
    },
  );
});
