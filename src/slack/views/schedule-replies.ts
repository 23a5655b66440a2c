/**
 * `/agent schedule …` replies and the scheduled question's own words, as Slack text: pure. Every
 * time is shown in the schedule's zone with the zone's name (DESIGN "Scheduled questions").
 */
import type { CommandOutcome } from '../../commands/command-outcome.js';
import type { ScheduleNotice } from '../../conversation/schedules/schedule-firing.js';
import { describeDays, localTimeText } from '../../conversation/schedules/schedule-times.js';
import type { ListedSchedule, PauseReason, Schedule } from '../../conversation/schedules/schedules.js';
import { type CommandReply, escapeMrkdwn, reply } from './mrkdwn-reply.js';

type ScheduleOutcome = Extract<
  CommandOutcome,
  { kind: 'schedule-added' | 'schedule-refused' | 'schedules' | 'schedule-removed' | 'schedule-unknown' }
>;

/** The question as it is posted in the channel (escaped; the adder's mention is the bot's own). */
export function renderScheduledQuestion(schedule: Schedule): { text: string } {
  return {
    text: `Scheduled question, added by <@${schedule.addedBy}>: ${escapeMrkdwn(schedule.question, 2_500)}`,
  };
}

/** "weekdays at 08:30 (Europe/Berlin)". */
export const whenText = (schedule: Schedule) =>
  `${describeDays(schedule.days)} at ${schedule.time} (${escapeMrkdwn(schedule.timeZone, 60)})`;

const nextText = (schedule: Schedule, nextRun: number | undefined) =>
  nextRun === undefined
    ? 'no next run'
    : `next: ${localTimeText(nextRun, schedule.timeZone)} ${escapeMrkdwn(schedule.timeZone, 60)}`;

export const PAUSE_TEXT: Record<PauseReason, string> = {
  'left-channel': 'paused: the bot is no longer in the channel',
  'connection-gone': 'paused: the channel’s agent or service connection is gone',
};

/** One line of a list (the command's and App Home's). */
export function scheduleLine({ schedule, nextRun }: ListedSchedule, withChannel = false): string {
  const where = withChannel ? ` in <#${schedule.channel}>` : '';
  const state = schedule.paused ? `*${PAUSE_TEXT[schedule.paused.reason]}*` : nextText(schedule, nextRun);
  return `• \`${schedule.id}\`${where} — ${whenText(schedule)}, ${state}, added by <@${schedule.addedBy}>: ${escapeMrkdwn(schedule.question, 150)}`;
}

export function renderScheduleOutcome(outcome: ScheduleOutcome): CommandReply {
  switch (outcome.kind) {
    case 'schedule-added': {
      const { schedule, nextRun } = outcome;
      return reply(
        `Scheduled \`${schedule.id}\`: ${whenText(schedule)} — ${nextText(schedule, nextRun)}. The question is posted in <#${schedule.channel}> and answered in its thread:`,
        `> ${escapeMrkdwn(schedule.question, 500)}`,
        `_Times are in your Slack time zone, ${escapeMrkdwn(schedule.timeZone, 60)}; daylight saving follows it. \`/agent schedule remove ${schedule.id}\` removes it._`,
      );
    }
    case 'schedule-refused':
      return reply(refusalText(outcome.reason, outcome.limit));
    case 'schedules':
      return outcome.rows.length === 0
        ? reply(
            `No scheduled questions in <#${outcome.channelId}>. Add one with \`/agent schedule add &lt;days&gt; &lt;HH:MM&gt; &lt;question&gt;\`.`,
          )
        : reply(
            `Scheduled questions in <#${outcome.channelId}> (each time in its own zone):`,
            outcome.rows.map((row) => scheduleLine(row)).join('\n'),
          );
    case 'schedule-removed':
      return reply(
        `Removed \`${outcome.schedule.id}\` (${whenText(outcome.schedule)} in <#${outcome.schedule.channel}>): it will not be asked again.`,
      );
    case 'schedule-unknown':
      return reply(
        `This workspace has no scheduled question \`${escapeMrkdwn(outcome.id, 40)}\`. Nothing changed; \`/agent schedule\` lists a channel’s.`,
      );
  }
}

function refusalText(
  reason: Extract<ScheduleOutcome, { kind: 'schedule-refused' }>['reason'],
  limit?: number,
) {
  switch (reason) {
    case 'outsiders':
      return 'People outside the organisation can read this channel, so no question is scheduled here: its answers would carry your service’s data to them. Nothing was kept.';
    case 'channel-full':
      return `This channel already has ${limit ?? 'the most'} scheduled questions (SCHEDULES_PER_CHANNEL). Remove one first. Nothing was kept.`;
    case 'not-a-channel':
      return 'Scheduled questions are for channels: run this in the channel where the question should be asked.';
  }
}

/** The DM to a schedule's adder. */
export function renderScheduleNotice(schedule: Schedule, notice: ScheduleNotice): { text: string } {
  const which = `Your scheduled question \`${schedule.id}\` in <#${schedule.channel}> (${whenText(schedule)})`;
  if (notice.kind === 'outsiders') {
    return {
      text: `${which} was not asked at ${localTimeText(notice.due, schedule.timeZone)} ${escapeMrkdwn(schedule.timeZone, 60)}: people outside the organisation can read the channel now. It stays scheduled; it is asked again once only people inside can read it.`,
    };
  }
  return {
    text: `${which} is ${PAUSE_TEXT[notice.reason]}, so it will not be asked again. Once that is fixed, remove it (\`/agent schedule remove ${schedule.id}\`) and add it again.`,
  };
}
