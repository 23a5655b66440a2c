import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/registry.js';

/** `/agent schedule …` (DESIGN "Scheduled questions"): the question is kept exactly as typed. */
describe('parsing /agent schedule', () => {
  it.each([
    ['schedule', { kind: 'schedule' }],
    ['schedules', { kind: 'schedule' }],
    [
      'schedule add weekdays 8:30 what broke overnight? "payments" &amp; checkout',
      {
        kind: 'schedule-add',
        days: [1, 2, 3, 4, 5],
        time: '08:30',
        question: 'what broke overnight? "payments" & checkout',
      },
    ],
    [
      'schedule add mon,fri 17:05 weekly  summary',
      { kind: 'schedule-add', days: [1, 5], time: '17:05', question: 'weekly  summary' },
    ],
    ['schedule remove 3F9A1C', { kind: 'schedule-remove', id: '3f9a1c' }],
  ] as const)('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['schedule add daily 08:30', 'schedule-add', 'something is missing'],
    ['schedule add daily 25:00 hi', 'schedule-add', 'is not a 24-hour time'],
    ['schedule add fortnightly 08:00 hi', 'schedule-add', 'is not `daily`'],
    ['schedule remove', 'schedule-remove', 'the schedule id is missing'],
    ['schedule remove a b', 'schedule-remove', 'unexpected “b”'],
    ['schedule pause 3f9a1c', 'schedule', 'unknown schedule command'],
    [`schedule add daily 08:00 ${'x'.repeat(2001)}`, 'schedule-add', 'longer than 2000 characters'],
  ] as const)('%j is refused with its usage', (text, subcommand, problem) => {
    const parsed = parseCommand(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.subcommand).toBe(subcommand);
    expect(parsed.problem).toContain(problem);
    expect(parsed.usage).toMatch(/^\/agent schedule/);
  });
});
