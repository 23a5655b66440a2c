/** `/agent schedule …` replies (DESIGN "Scheduled questions"). */
import type { ScheduleOutcome } from '../../../commands/schedule-command.js';
import { escapeMrkdwn, type Replies, reply } from '../mrkdwn-reply.js';
import { nextText, scheduleLine, whenText } from '../schedule-replies.js';

function refusalText({ reason, limit }: Extract<ScheduleOutcome, { kind: 'schedule-refused' }>): string {
  switch (reason) {
    case 'outsiders':
      return 'People outside the organisation can read this channel, so no question is scheduled here: its answers would carry your service’s data to them. Nothing was kept.';
    case 'channel-full':
      return `This channel already has ${limit ?? 'the most'} scheduled questions (SCHEDULES_PER_CHANNEL). Remove one first. Nothing was kept.`;
    case 'not-a-channel':
      return 'Scheduled questions are for channels: run this in the channel where the question should be asked.';
  }
}

export const scheduleReplies: Replies<ScheduleOutcome> = {
  'schedule-added': ({ schedule, nextRun }) =>
    reply(
      `Scheduled \`${schedule.id}\`: ${whenText(schedule)} — ${nextText(schedule, nextRun)}. The question is posted in <#${schedule.channel}> and answered in its thread:`,
      `> ${escapeMrkdwn(schedule.question, 500)}`,
      `_Times are in your Slack time zone, ${escapeMrkdwn(schedule.timeZone, 60)}; daylight saving follows it. \`/agent schedule remove ${schedule.id}\` removes it._`,
    ),
  'schedule-refused': refusalText,
  schedules: (outcome) =>
    outcome.rows.length === 0
      ? `No scheduled questions in <#${outcome.channelId}>. Add one with \`/agent schedule add &lt;days&gt; &lt;HH:MM&gt; &lt;question&gt;\`.`
      : reply(
          `Scheduled questions in <#${outcome.channelId}> (each time in its own zone):`,
          outcome.rows.map((row) => scheduleLine(row)).join('\n'),
        ),
  'schedule-removed': ({ schedule }) =>
    `Removed \`${schedule.id}\` (${whenText(schedule)} in <#${schedule.channel}>): it will not be asked again.`,
  'schedule-unknown': (outcome) =>
    `This workspace has no scheduled question \`${escapeMrkdwn(outcome.id, 40)}\`. Nothing changed; \`/agent schedule\` lists a channel’s.`,
};
