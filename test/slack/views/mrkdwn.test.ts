import { describe, expect, it } from 'vitest';
import { mrkdwnEscapeProblem } from '../../../dev/slack-standin/index.js';
import {
  andMore,
  cutMrkdwn,
  escapedText,
  splitMrkdwn,
  summariseInline,
  summariseLines,
} from '../../../src/slack/views/mrkdwn.js';

describe('escapedText: escape, then cut', () => {
  it.each([
    ['plain text', 'checkout is slow', 100, 'checkout is slow'],
    ['reserved characters', 'a <b> & c', 100, 'a &lt;b&gt; &amp; c'],
    ['a control sequence from outside', '<!channel> look', 100, '&lt;!channel&gt; look'],
    ['backticks and emoji stay', '`x` 🚀 <y>', 100, '`x` 🚀 &lt;y&gt;'],
  ])('%s', (_what, input, max, expected) => {
    expect(escapedText(input, max)).toBe(expected);
  });

  it('fits the limit after escaping (1,500 "<" are 6,000 characters escaped)', () => {
    const text = escapedText('<'.repeat(1_500), 3_000);
    expect(text.length).toBeLessThanOrEqual(3_000);
    expect(text).toMatch(/^(&lt;)+…$/);
    expect(mrkdwnEscapeProblem(text)).toBeUndefined();
  });
});

describe('cutMrkdwn', () => {
  it.each([
    ['never splits an escape', 'aaaa&amp;bbbb', 7, 'aaaa…'],
    ['never splits &lt;', 'ab&lt;cd', 5, 'ab…'],
    ['never splits a user mention', 'hi <@U0ALICE> there', 8, 'hi…'],
    ['never splits a link', 'see <https://example.com/a|the docs> now', 20, 'see…'],
    ['never splits an emoji', 'ab👍🏽cd', 4, 'ab…'],
    ['keeps text that fits', 'short &amp; sweet', 17, 'short &amp; sweet'],
  ])('%s', (_what, input, max, expected) => {
    const cut = cutMrkdwn(input, max);
    expect(cut).toBe(expected);
    expect(cut.length).toBeLessThanOrEqual(max);
  });
});

describe('summariseLines', () => {
  const lines = Array.from({ length: 35 }, (_, i) => `• row ${String(i).padStart(2, '0')} ${'x'.repeat(90)}`);

  it('keeps every line that fits', () => {
    expect(summariseLines(['a', 'b'], 100)).toBe('a\nb');
  });

  it('ends with "…and N more" within the limit, never cutting a row', () => {
    const text = summariseLines(lines, 1_000);
    expect(text.length).toBeLessThanOrEqual(1_000);
    const rows = text.split('\n');
    const shown = rows.length - 1;
    expect(rows.at(-1)).toBe(andMore(35 - shown));
    expect(rows.slice(0, -1)).toEqual(lines.slice(0, shown));
  });

  it('holds to a number of lines too', () => {
    expect(summariseLines(['a', 'b', 'c'], 100, 2)).toBe('a\nb\n…and 1 more');
  });

  it('cuts a first line too long on its own rather than showing nothing', () => {
    const text = summariseLines(['y'.repeat(500), 'b'], 100);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(text).toMatch(/^y+…\nb$/);
  });
});

describe('summariseInline', () => {
  it.each([
    [['a', 'b'], 3, 'a, b'],
    [['a', 'b', 'c', 'd'], 2, 'a, b and 2 more'],
  ])('%j at most %i', (items, max, expected) => {
    expect(summariseInline(items, max)).toBe(expected);
  });
});

describe('splitMrkdwn', () => {
  it('splits at line ends into pieces within the limit', () => {
    const text = Array.from({ length: 40 }, (_, i) => `• line ${i} ${'z'.repeat(90)}`).join('\n');
    const pieces = splitMrkdwn(text, 1_000);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(1_000);
    expect(pieces.join('\n')).toBe(text);
  });

  it('cuts a single line longer than the limit', () => {
    const pieces = splitMrkdwn(`short\n${'w'.repeat(50)}`, 20);
    expect(pieces).toEqual(['short', `${'w'.repeat(19)}…`]);
  });
});
