import { parseClockTime, parseDays, type Weekday } from '../conversation/schedules/schedule-times.js';
import type { SubcommandName } from './help-text.js';

/**
 * `/agent schedule …` text → a typed subcommand (DESIGN "Scheduled questions"). Parsed from the
 * text rather than the tokens: the question is everything after the time, exactly as typed
 * (quotes and spacing included). Pure.
 */
export type ScheduleCommand =
  | { kind: 'schedule' }
  | { kind: 'schedule-add'; days: Weekday[]; time: string; question: string }
  | { kind: 'schedule-remove'; id: string };

export type ScheduleParse =
  | { ok: true; command: ScheduleCommand }
  | { ok: false; subcommand: SubcommandName; problem: string };

/** Longest question kept: a Slack message's question, not a document. */
export const SCHEDULE_QUESTION_MAX_CHARS = 2_000;

/** Whether `/agent <text>` is a schedule command (its first word). */
export const isScheduleText = (text: string) => /^schedules?(\s|$)/i.test(text);

/** `schedule`, `schedule add <days> <HH:MM> <question>`, `schedule remove <id>`. */
export function parseSchedule(text: string): ScheduleParse {
  const [, verb = '', rest = ''] = /^schedules?(?:\s+(\S+))?\s*([\s\S]*)$/i.exec(text.trim()) ?? [];
  switch (verb.toLowerCase()) {
    case '':
    case 'list':
      return rest === ''
        ? { ok: true, command: { kind: 'schedule' } }
        : { ok: false, subcommand: 'schedule', problem: `unexpected “${rest.split(/\s+/)[0]}”` };
    case 'add':
      return parseAdd(rest);
    case 'remove':
    case 'delete': {
      const [id, extra] = rest.split(/\s+/).filter(Boolean);
      if (!id) return { ok: false, subcommand: 'schedule-remove', problem: 'the schedule id is missing' };
      if (extra) return { ok: false, subcommand: 'schedule-remove', problem: `unexpected “${extra}”` };
      return { ok: true, command: { kind: 'schedule-remove', id: id.replace(/`/g, '').toLowerCase() } };
    }
    default:
      return {
        ok: false,
        subcommand: 'schedule',
        problem: 'unknown schedule command (use `add <days> <HH:MM> <question>` or `remove <id>`)',
      };
  }
}

function parseAdd(rest: string): ScheduleParse {
  const fail = (problem: string): ScheduleParse => ({ ok: false, subcommand: 'schedule-add', problem });
  const match = /^(\S+)\s+(\S+)\s+([\s\S]+)$/.exec(rest.trim());
  if (!match) return fail('something is missing');
  const [, daysText = '', timeText = '', question = ''] = match;
  const days = parseDays(daysText);
  if (!days) return fail(`“${daysText}” is not \`daily\`, \`weekdays\` or days like \`mon,wed,fri\``);
  const time = parseClockTime(timeText);
  if (!time) return fail(`“${timeText}” is not a 24-hour time like \`08:30\``);
  const trimmed = question.trim();
  if (trimmed.length > SCHEDULE_QUESTION_MAX_CHARS) {
    return fail(`the question is longer than ${SCHEDULE_QUESTION_MAX_CHARS} characters`);
  }
  return { ok: true, command: { kind: 'schedule-add', days, time, question: trimmed } };
}
