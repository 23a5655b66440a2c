/** A scheduled question's words; each time in the schedule's named zone (DESIGN "Scheduled questions"). */
import type { ScheduleNotice } from '../../conversation/schedules/schedule-firing.js';
import { describeDays, localTimeText } from '../../conversation/schedules/schedule-times.js';
import type { ListedSchedule, PauseReason, Schedule } from '../../conversation/schedules/schedules.js';
import { escapeMrkdwn } from './mrkdwn-reply.js';

/** The question as it is posted in the channel (escaped; the adder's mention is the bot's own). */
export const renderScheduledQuestion = (schedule: Schedule): { text: string } => ({
  text: `Scheduled question, added by <@${schedule.addedBy}>: ${escapeMrkdwn(schedule.question, 2_500)}`,
});

/** "weekdays at 08:30 (Europe/Berlin)". */
export const whenText = (schedule: Schedule) =>
  `${describeDays(schedule.days)} at ${schedule.time} (${escapeMrkdwn(schedule.timeZone, 60)})`;

export const nextText = (schedule: Schedule, nextRun: number | undefined) =>
  nextRun === undefined
    ? 'no next run'
    : `next: ${localTimeText(nextRun, schedule.timeZone)} ${escapeMrkdwn(schedule.timeZone, 60)}`;

const PAUSE_TEXT: Record<PauseReason, string> = {
  'left-channel': 'paused: the bot is no longer in the channel',
  'connection-gone': 'paused: the channel’s agent or service connection is gone',
};

/** One line of a list (the command's and App Home's). */
export function scheduleLine({ schedule, nextRun }: ListedSchedule, withChannel = false): string {
  const where = withChannel ? ` in <#${schedule.channel}>` : '';
  const state = schedule.paused ? `*${PAUSE_TEXT[schedule.paused.reason]}*` : nextText(schedule, nextRun);
  return `• \`${schedule.id}\`${where} — ${whenText(schedule)}, ${state}, added by <@${schedule.addedBy}>: ${escapeMrkdwn(schedule.question, 150)}`;
}

/** The DM to a schedule's adder. */
export function renderScheduleNotice(schedule: Schedule, notice: ScheduleNotice): { text: string } {
  const which = `Your scheduled question \`${schedule.id}\` in <#${schedule.channel}> (${whenText(schedule)})`;
  const text =
    notice.kind === 'outsiders'
      ? `${which} was not asked at ${localTimeText(notice.due, schedule.timeZone)} ${escapeMrkdwn(schedule.timeZone, 60)}: people outside the organisation can read the channel now. It stays scheduled; it is asked again once only people inside can read it.`
      : `${which} is ${PAUSE_TEXT[notice.reason]}, so it will not be asked again. Once that is fixed, remove it (\`/agent schedule remove ${schedule.id}\`) and add it again.`;
  return { text };
}
