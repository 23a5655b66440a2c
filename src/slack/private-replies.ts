import type { WebClient } from '@slack/web-api';
import type { PrivateReplies } from '../conversation/access/answer-place.js';
import type { Logger } from '../runtime/logger.js';
import { NO_PREVIEWS } from './no-previews.js';
import { renderPrivateNote, renderPrivateQuote } from './views/private-answer.js';
import { openDm, postedTs } from './web-client.js';

/** The asker's DM thread, rooted by a quote of the question (permalink best effort); a note in the origin. */
export function createSlackPrivateReplies(client: WebClient, logger: Logger): PrivateReplies {
  async function permalinkOf(channel: string, ts: string): Promise<string | undefined> {
    try {
      return (await client.chat.getPermalink({ channel, message_ts: ts })).permalink;
    } catch (error) {
      logger.debug({ err: error, channel }, 'no permalink for the question');
      return undefined;
    }
  }

  return {
    async openThread(asker, origin, question, reason) {
      const [channel, permalink] = await Promise.all([
        openDm(client, asker),
        permalinkOf(origin.channel, origin.sourceTs),
      ]);
      const view = renderPrivateQuote({ channel: origin.channel, permalink, question, reason });
      // The quote is the asker's question, which may hold a link (and log data).
      const posted = await client.chat.postMessage({ channel, ...view, ...NO_PREVIEWS });
      return { channel, ts: postedTs(posted) };
    },
    async leaveNote(origin, asker, reason) {
      const text = renderPrivateNote(asker, reason);
      await client.chat.postMessage({
        channel: origin.channel,
        thread_ts: origin.threadTs,
        text,
        blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }],
        ...NO_PREVIEWS,
      });
    },
  };
}
