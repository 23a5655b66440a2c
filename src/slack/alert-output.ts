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
  return {
    async postCard(channel, card) {
      const posted = await client.chat.postMessage({
        channel,
        ...NO_PREVIEWS,
        ...renderAlertCard(card, identity.botUserId),
      } as Parameters<WebClient['chat']['postMessage']>[0]);
      return postedTs(posted);
    },
    async postFiredAgain(where, title, at) {
      await client.chat.postMessage({
        channel: where.channel,
        thread_ts: where.threadTs,
        ...renderFiredAgain(title, at),
        ...NO_PREVIEWS,
      });
    },
    async postNotInvestigated(where, reason) {
      await client.chat.postMessage({
        channel: where.channel,
        thread_ts: where.threadTs,
        ...renderNotInvestigated(reason, identity.botUserId),
        ...NO_PREVIEWS,
      });
    },
  };
}
