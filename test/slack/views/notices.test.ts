import { describe, expect, it } from 'vitest';
import { AgentApiError, AgentApiErrorCode } from '../../../src/agent-api/errors.js';
import type { Refusal, TurnNotice } from '../../../src/conversation/thread-output-port.js';
import {
  formatDuration,
  type NoticeView,
  renderLateNote,
  renderNotice,
  renderProgress,
  renderRefusal,
} from '../../../src/slack/views/notices.js';

/** The one shape every notice has: one block whose mrkdwn is the fallback text. */
function blockText(view: NoticeView): string | undefined {
  expect(view.blocks).toHaveLength(1);
  const [block] = view.blocks;
  const element = block?.type === 'context' ? block.elements[0] : block?.text;
  return element && 'text' in element ? element.text : undefined;
}

function expectNotice(view: NoticeView, contains: string): void {
  expect(blockText(view)).toBe(view.text);
  expect(view.text).toContain(contains);
  expect(view.text.length).toBeLessThan(700);
}

describe('formatDuration', () => {
  it.each([
    [0, '0 s'],
    [400, '0 s'],
    [42_000, '42 s'],
    [59_600, '1 min'],
    [60_000, '1 min'],
    [125_000, '2 min 5 s'],
    [3_600_000, '1 h'],
    [3_720_000, '1 h 2 min'],
    [-5_000, '0 s'],
  ])('%i ms → %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe('renderProgress', () => {
  it.each([
    [{ steps: 3, elapsedMs: 42_000 }, 'Working on it… step 3 · 42 s'],
    [{ steps: 0, elapsedMs: 5_000 }, 'Working on it… 5 s'],
    [{ steps: 12, elapsedMs: 125_000 }, 'Working on it… step 12 · 2 min 5 s'],
  ])('%o → %s', (progress, expected) => {
    const view = renderProgress(progress);
    expect(view.text).toBe(expected);
    expect(view.blocks[0]?.type).toBe('context');
    expect(blockText(view)).toBe(expected);
  });
});

describe('renderNotice', () => {
  it.each<[string, TurnNotice, string]>([
    [
      'run error',
      { kind: 'run-error', reason: 'The index logs-prod does not exist.' },
      'logs-prod does not exist',
    ],
    ['run error without a reason', { kind: 'run-error', reason: '  ' }, 'gave no reason'],
    ['canceled', { kind: 'canceled' }, 'canceled'],
    ['deadline', { kind: 'deadline', waitedMs: 15 * 60_000 }, 'stopped waiting after 15 min'],
    [
      'deadline with a late watch',
      { kind: 'deadline', waitedMs: 30 * 60_000, watchForMs: 60 * 60_000 },
      "still working after 30 min. I'll keep an eye on it for up to 1 h more",
    ],
    ['watch ended', { kind: 'watch-ended', waitedMs: 90 * 60_000 }, 'stopped watching after 1 h 30 min'],
    ['lost turn', { kind: 'lost-turn' }, 'send your message again'],
    [
      'service error',
      {
        kind: 'service-error',
        error: new AgentApiError(AgentApiErrorCode.Maintenance, 'x'),
        referenceId: 'ab12cd34',
      },
      'down for maintenance — please try again later (ref: ab12cd34).',
    ],
  ])('%s', (_name, notice, contains) => {
    expectNotice(renderNotice(notice), contains);
  });

  it('makes the agent’s reason safe: neutralised, mrkdwn-escaped, one line, shortened', () => {
    const reason = `<!channel> failed for <@U1|bob> & a<b>\n\n${'detail '.repeat(500)}`;
    const view = renderNotice({ kind: 'run-error', reason });
    expect(view.text).not.toMatch(/<|>/);
    expect(view.text).toContain('&amp; a&lt;b&gt;');
    expect(view.text.replace(/\u2060/g, '')).toContain('@channel failed for @bob');
    expect(view.text).not.toContain('\n');
    expect(view.text.endsWith('…')).toBe(true);
    expect(view.text.length).toBeLessThan(600);
  });
});

describe('renderRefusal', () => {
  it.each<[Refusal, string]>([
    ['busy', 'still working on the previous message'],
    ['external-user', "only answer people from this workspace's organisation"],
    ['guest', "I don't answer guests of this workspace"],
    ['channel-not-allowed', 'not enabled in this channel'],
    ['empty-prompt', 'empty'],
  ])('%s', (refusal, contains) => {
    const view = renderRefusal(refusal);
    expectNotice(view, contains);
    expect(view.blocks[0]?.type).toBe('context');
  });

  it('says how long the agent has been working when it knows', () => {
    const view = renderRefusal('busy', { workingForMs: 34 * 60_000 });
    expectNotice(view, 'the agent has been at it for 34 min');
  });
});

describe('renderRefusal: over the hourly limit', () => {
  const at = (h: number, m: number, sec = 0) => Date.UTC(2026, 2, 1, h, m, sec);
  const now = at(14, 20, 10);

  it('says how many, and when again on the clock of the person (rounded up to the minute) and as a countdown', () => {
    const view = renderRefusal(
      'over-limit',
      { retryAt: at(14, 31, 20), limit: 30, timeZone: 'America/New_York' },
      now,
    );
    expectNotice(
      view,
      "You've asked 30 questions in the last hour, the most one person can. You can ask again at 09:32 (in 12 minutes).",
    );
    expect(view.blocks[0]?.type).toBe('context');
  });

  it.each([
    ['no zone', undefined],
    ['a zone this runtime does not know', 'Mars/Olympus_Mons'],
  ])('with %s, says the time in UTC', (_case, timeZone) => {
    expect(renderRefusal('over-limit', { retryAt: at(14, 31, 20), limit: 30, timeZone }, now).text).toContain(
      'You can ask again at 14:32 UTC (in 12 minutes).',
    );
  });

  it('speaks in the singular for one question and one minute', () => {
    expect(renderRefusal('over-limit', { retryAt: at(14, 20, 30), limit: 1 }, now).text).toBe(
      "You've asked 1 question in the last hour, the most one person can. You can ask again at 14:21 UTC (in 1 minute).",
    );
  });

  it('without a time, still says why', () => {
    expectNotice(renderRefusal('over-limit'), 'as many questions in the last hour as one person can');
  });
});

describe('renderLateNote', () => {
  it('says the answer is late and how long the agent took', () => {
    expect(renderLateNote(42 * 60_000)).toBe(':hourglass: _Late answer — the agent took 42 min._');
  });
});
