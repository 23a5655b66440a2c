import type { WebClient } from '@slack/web-api';
import type { AlertOutput } from '../alerts/alert-ports.js';
import { NO_PREVIEWS } from './no-previews.js';
import { renderAlertCard, renderFiredAgain, renderNotInvestigated } from './views/alert-card.js';
import { postedTs } from './web-client.js';

/** The alert card and alert-thread replies; errors reach the caller. `identity` is read per post (OAuth). */
export function createSlackAlertOutput(
  client: WebClient,
  identity: { readonly botUserId: string },
): AlertOutput {
  type ThreadReply = ReturnType<typeof renderFiredAgain>;
  const reply = async ({ channel, threadTs }: { channel: string; threadTs: string }, view: ThreadReply) => {
    await client.chat.postMessage({ channel, thread_ts: threadTs, ...view, ...NO_PREVIEWS });
  };
  return {
    async postCard(channel, card) {
      const posted = await client.chat.postMessage({
        channel,
        ...NO_PREVIEWS,
        ...renderAlertCard(card, identity.botUserId),
      } as Parameters<WebClient['chat']['postMessage']>[0]);
      return postedTs(posted);
    },
    postFiredAgain: (where, title, at) => reply(where, renderFiredAgain(title, at)),
    postNotInvestigated: (where, reason) => reply(where, renderNotInvestigated(reason, identity.botUserId)),
  };
}
