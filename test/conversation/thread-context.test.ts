import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../../src/conversation/context-ports.js';
import {
  authorOf,
  buildThreadContext,
  renderMessageLine,
  utcMinute,
} from '../../src/conversation/thread-context.js';

const names = new Map([
  ['UALICE', 'alice'],
  ['UBOB', 'bob'],
]);
const TS = '1763903100.000100'; // 2025-11-23 13:05 UTC
const person = (ts: string, text: string, user = 'UBOB'): ThreadMessage => ({ ts, user, text });
const heading = 'Earlier messages in this Slack thread';

describe('renderMessageLine', () => {
  it('writes one line: UTC time, author, readable text', () => {
    const line = renderMessageLine(
      person(
        TS,
        'hey <@UALICE>, see <#C1|ops> and <https://x.example/a|the graph> &amp; <!here>\nsecond line',
      ),
      names,
    );
    expect(line).toBe(
      '[2025-11-23 13:05 UTC] bob: hey @alice, see #ops and the graph (https://x.example/a) & @here / second line',
    );
  });

  it('names bots and integrations by their profile, marked (bot)', () => {
    expect(authorOf({ ts: TS, bot_id: 'B1', bot_profile: { name: 'Datadog' } }, names)).toBe('Datadog (bot)');
    expect(authorOf({ ts: TS, bot_id: 'B1', username: 'Grafana', subtype: 'bot_message' }, names)).toBe(
      'Grafana (bot)',
    );
    expect(authorOf({ ts: TS, bot_id: 'B1' }, names)).toBe('B1 (bot)');
    expect(authorOf({ ts: TS, user: 'UUNKNOWN' }, names)).toBe('UUNKNOWN');
    expect(authorOf({ ts: TS }, names)).toBe('someone');
  });

  it('removes control characters and marks messages without text', () => {
    expect(renderMessageLine(person(TS, 'a\u0000b\u001b[1mc\u007f'), names)).toBe(
      '[2025-11-23 13:05 UTC] bob: ab[1mc',
    );
    expect(renderMessageLine({ ts: TS, bot_id: 'B1', attachments: [{}] }, names)).toContain(
      'B1 (bot): (no text)',
    );
  });

  it('shows an unreadable ts as such instead of throwing', () => {
    expect(utcMinute('not-a-ts')).toBe('(unknown time)');
  });
});

describe('buildThreadContext', () => {
  it('sends nothing when the budget is 0 or there are no messages', () => {
    expect(buildThreadContext({ messages: [person(TS, 'a')], names, maxChars: 0, heading })).toBeUndefined();
    expect(buildThreadContext({ messages: [], names, maxChars: 8000, heading })).toBeUndefined();
  });

  it('sends every message with a heading when they fit', () => {
    const built = buildThreadContext({
      messages: [person(TS, 'root'), person('1763903160.000100', 'reply', 'UALICE')],
      names,
      maxChars: 8000,
      heading,
    });
    expect(built).toEqual({
      text: `${heading} (times in UTC):\n[2025-11-23 13:05 UTC] bob: root\n[2025-11-23 13:06 UTC] alice: reply`,
      included: 2,
      omitted: 0,
    });
  });

  it('past the budget keeps the root and the newest, in order, and counts the rest', () => {
    const messages = Array.from({ length: 100 }, (_, index) =>
      person(`${1763903100 + index}.000100`, `message ${index} ${'z'.repeat(50)}`),
    );
    const built = buildThreadContext({ messages, names, maxChars: 1000, heading });
    const text = built?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(1000);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`${heading} (times in UTC; ${built?.omitted} of 100 messages left out to fit):`);
    expect(lines[1]).toContain('message 0 ');
    expect(lines[2]).toBe(`… ${built?.omitted} messages left out …`);
    expect(lines.at(-1)).toContain('message 99 ');
    const shown = lines.slice(3).map((line) => Number(/message (\d+)/.exec(line)?.[1]));
    expect(shown).toEqual(Array.from({ length: shown.length }, (_, index) => 100 - shown.length + index));
    expect((built?.included ?? 0) + (built?.omitted ?? 0)).toBe(100);
  });

  it('cuts a root over the budget at its end and marks it', () => {
    const built = buildThreadContext({
      messages: [person(TS, 'r'.repeat(40_000))],
      names,
      maxChars: 500,
      heading,
    });
    expect(built?.text.length).toBeLessThanOrEqual(500);
    expect(built?.text).toMatch(/r … \[cut\]$/);
    expect(built?.included).toBe(1);
  });

  it('cuts a huge newest message rather than losing it', () => {
    const built = buildThreadContext({
      messages: [person(TS, 'root'), person('1763903200.000100', 'n'.repeat(40_000))],
      names,
      maxChars: 600,
      heading,
    });
    expect(built?.text.length).toBeLessThanOrEqual(600);
    expect(built?.text).toContain('bob: root');
    expect(built?.text).toMatch(/bob: nnn+ … \[cut\]$/);
    expect(built?.omitted).toBe(0);
  });

  it('counts messages that were never read (a thread longer than the reader reads)', () => {
    const built = buildThreadContext({
      messages: [person(TS, 'root')],
      names,
      maxChars: 8000,
      heading,
      unread: 5,
    });
    expect(built?.text).toContain('5 of 6 messages left out');
    expect(built?.omitted).toBe(5);
  });

  it('never exceeds even a tiny budget', () => {
    for (const maxChars of [1, 10, 60, 120]) {
      const built = buildThreadContext({
        messages: [person(TS, 'a'.repeat(500)), person('1763903200.000100', 'b'.repeat(500))],
        names,
        maxChars,
        heading,
      });
      expect(built?.text.length ?? 0).toBeLessThanOrEqual(maxChars);
    }
  });
});
