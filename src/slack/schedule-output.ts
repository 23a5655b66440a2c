import type { WebClient } from '@slack/web-api';
import type { ScheduleOutput } from '../conversation/schedules/schedule-firing.js';
import { NO_PREVIEWS } from './no-previews.js';
import { classifySlackError } from './slack-errors.js';
import { renderScheduledQuestion, renderScheduleNotice } from './views/schedule-replies.js';
import { openDm, postedTs } from './web-client.js';

/**
 * What Slack answers when the bot cannot post in the channel any more: the schedule pauses.
 * https://docs.slack.dev/reference/methods/chat.postMessage#errors
 */
const CHANNEL_GONE = new Set(['not_in_channel', 'channel_not_found', 'is_archived']);

/** Scheduled questions and the DM to their adder, on the client of the schedule's installation (in scope). */
export function createSlackScheduleOutput(client: WebClient): ScheduleOutput {
  return {
    async postQuestion(schedule) {
      try {
        // The question may hold a link: no previews (DESIGN "No previews").
        const posted = await client.chat.postMessage({
          channel: schedule.channel,
          ...renderScheduledQuestion(schedule),
          ...NO_PREVIEWS,
        });
        return { ts: postedTs(posted) };
      } catch (error) {
        if (CHANNEL_GONE.has(classifySlackError(error).code)) return { gone: true };
        throw error;
      }
    },
    async tellAdder(schedule, notice) {
      const channel = await openDm(client, schedule.addedBy);
      await client.chat.postMessage({ channel, ...renderScheduleNotice(schedule, notice), ...NO_PREVIEWS });
    },
  };
}
