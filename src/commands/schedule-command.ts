import {
  isKnownZone,
  parseClockTime,
  parseDays,
  type Weekday,
} from '../conversation/schedules/schedule-times.js';
import type { ListedSchedule, Schedule } from '../conversation/schedules/schedules.js';
import { auditedRequest, helpLine, type Subcommand, UsageError } from './subcommand.js';

type ScheduleCommand =
  | { kind: 'schedule' }
  | { kind: 'schedule-add'; days: Weekday[]; time: string; question: string }
  | { kind: 'schedule-remove'; id: string };

export type ScheduleOutcome =
  /** The schedule, and its first run (epoch ms). */
  | { kind: 'schedule-added'; schedule: Schedule; nextRun: number | undefined }
  /** Nothing was kept. */
  | {
      kind: 'schedule-refused';
      reason: 'outsiders' | 'channel-full' | 'not-a-channel';
      limit?: number | undefined;
    }
  | { kind: 'schedules'; channelId: string; rows: ListedSchedule[] }
  | { kind: 'schedule-removed'; schedule: Schedule }
  /** No schedule of this installation has that id (another's is not named either). */
  | { kind: 'schedule-unknown'; id: string };

/** Longest question kept: a Slack message's question, not a document. */
const SCHEDULE_QUESTION_MAX_CHARS = 2_000;

function parseAdd(rest: string): ScheduleCommand {
  const refuse = (problem: string) => new UsageError('schedule-add', problem);
  const match = /^(\S+)\s+(\S+)\s+([\s\S]+)$/.exec(rest.trim());
  if (!match) throw refuse('something is missing');
  const [, daysText = '', timeText = '', question = ''] = match;
  const days = parseDays(daysText);
  if (!days) throw refuse(`“${daysText}” is not \`daily\`, \`weekdays\` or days like \`mon,wed,fri\``);
  const time = parseClockTime(timeText);
  if (!time) throw refuse(`“${timeText}” is not a 24-hour time like \`08:30\``);
  const trimmed = question.trim();
  if (trimmed.length > SCHEDULE_QUESTION_MAX_CHARS)
    throw refuse(`the question is longer than ${SCHEDULE_QUESTION_MAX_CHARS} characters`);
  return { kind: 'schedule-add', days, time, question: trimmed };
}

/** `/agent schedule …` (DESIGN "Scheduled questions"): parsed from the text, the question kept as typed. */
export const scheduleCommand: Subcommand<ScheduleCommand, ScheduleOutcome> = {
  words: ['schedule', 'schedules'],
  help: [
    helpLine(
      'schedule',
      '/agent schedule',
      'List this channel’s scheduled questions (this workspace’s): id, days, time with its time zone, next run, who added it.',
    ),
    helpLine(
      'schedule-add',
      '/agent schedule add <daily|weekdays|mon,tue,…> <HH:MM> <question>',
      'Ask the question in this channel at that time (in your Slack time zone) and answer it in its thread, on the channel’s agent. Refused in channels people outside the organisation can read.',
      { example: '/agent schedule add weekdays 08:30 what broke overnight?' },
    ),
    helpLine(
      'schedule-remove',
      '/agent schedule remove <id>',
      'Remove one of this workspace’s scheduled questions (its id is in `/agent schedule`).',
      { example: '/agent schedule remove 3f9a1c' },
    ),
  ],
  parseText(text) {
    const [, verb = '', rest = ''] = /^(\S*)\s*([\s\S]*)$/.exec(text.trim()) ?? [];
    switch (verb.toLowerCase()) {
      case '':
      case 'list':
        if (rest !== '') throw new UsageError('schedule', `unexpected “${rest.split(/\s+/)[0]}”`);
        return { kind: 'schedule' };
      case 'add':
        return parseAdd(rest);
      case 'remove':
      case 'delete': {
        const [id, extra] = rest.split(/\s+/).filter(Boolean);
        if (!id) throw new UsageError('schedule-remove', 'the schedule id is missing');
        if (extra) throw new UsageError('schedule-remove', `unexpected “${extra}”`);
        return { kind: 'schedule-remove', id: id.replace(/`/g, '').toLowerCase() };
      }
      default:
        throw new UsageError(
          'schedule',
          'unknown schedule command (use `add <days> <HH:MM> <question>` or `remove <id>`)',
        );
    }
  },
  async run(command, { userId, channelId }, { schedules: port, tenant, channelAgents }) {
    if (!port) return { kind: 'help' };
    switch (command.kind) {
      case 'schedule-remove': {
        const removed = await port.schedules.remove(tenant, command.id);
        return removed
          ? { kind: 'schedule-removed', schedule: removed }
          : { kind: 'schedule-unknown', id: command.id };
      }
      case 'schedule':
        if (!channelId) return { kind: 'schedule-refused', reason: 'not-a-channel' };
        return { kind: 'schedules', channelId, rows: await port.schedules.inChannel(tenant, channelId) };
      case 'schedule-add': {
        // A DM or a group DM has no "channel" to post a morning question in.
        if (!channelId || !/^[CG]/.test(channelId))
          return { kind: 'schedule-refused', reason: 'not-a-channel' };
        if ((await channelAgents.agentFor(tenant, channelId)).source === 'unbound')
          return { kind: 'channel-unbound' };
        if (await port.refusesOutsiders(channelId)) return { kind: 'schedule-refused', reason: 'outsiders' };
        const zone = await port.zoneOf(userId).catch(() => undefined);
        // Without a zone from Slack, times are UTC (and every reply says so).
        const timeZone = zone && isKnownZone(zone) ? zone : 'UTC';
        const { kind: _kind, ...timing } = command;
        const result = await port.schedules.add(tenant, {
          ...timing,
          timeZone,
          channel: channelId,
          addedBy: userId,
        });
        if (!result.added) return { kind: 'schedule-refused', reason: 'channel-full', limit: result.limit };
        return { kind: 'schedule-added', schedule: result.schedule, nextRun: result.nextRun };
      }
    }
  },
  describe(command) {
    if (command.kind !== 'schedule-add') return auditedRequest(command);
    // The question is a prompt: kept out of info logs (its length is enough for an audit).
    const { kind, question, ...rest } = command;
    return { subcommand: kind, ...rest, questionChars: question.length };
  },
  auditFields(outcome) {
    if (outcome.kind === 'schedule-added' || outcome.kind === 'schedule-removed')
      return { scheduleId: outcome.schedule.id, timeZone: outcome.schedule.timeZone };
    return outcome.kind === 'schedule-refused' ? { reason: outcome.reason } : {};
  },
  result: (outcome) =>
    outcome.kind === 'schedule-refused' || outcome.kind === 'schedule-unknown' ? 'refused' : 'ok',
  changesAdminHome: (outcome) => outcome.kind === 'schedule-added' || outcome.kind === 'schedule-removed',
};
