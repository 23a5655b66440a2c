import type { ConversationsRepliesResponse, WebClient } from '@slack/web-api';
import type { ThreadLocation, TurnMessages, TurnNotice } from '../conversation/thread-output-port.js';
import type { CountedCall } from './slack-errors.js';
import type { SlackIdentity } from './slack-identity.js';

/** Answer messages carry this metadata type, with the turn id, so a thread can be checked. */
export const ANSWER_EVENT_TYPE = 'agent_answer';
/** Progress messages carry the turn id too: a successor finds one a dead replica posted but never saved. */
export const PROGRESS_EVENT_TYPE = 'agent_progress';
/** Notices carry the turn id and their kind, so a retry can see one already posted. */
export const NOTICE_EVENT_TYPE = 'agent_notice';

type ThreadMessage = NonNullable<ConversationsRepliesResponse['messages']>[number];

/** Sorts the bot's messages that carry `turnId` into answer parts, notices and progress messages. */
function turnMessagesOf(messages: ThreadMessage[], turnId: string): TurnMessages {
  const parts: Array<{ ts: string; part: number; parts: number }> = [];
  const found: TurnMessages = { answer: [], notices: [], progress: [] };
  for (const { ts, metadata } of messages) {
    const payload = metadata?.event_payload as Record<string, unknown> | undefined;
    if (!ts || payload?.turn_id !== turnId) continue;
    if (metadata?.event_type === ANSWER_EVENT_TYPE)
      parts.push({ ts, part: Number(payload.part), parts: Number(payload.parts) });
    else if (metadata?.event_type === NOTICE_EVENT_TYPE)
      found.notices.push(payload.notice as TurnNotice['kind']);
    else if (metadata?.event_type === PROGRESS_EVENT_TYPE) found.progress.push(ts);
  }
  // Only a complete answer counts as posted; a partial one is posted again in full.
  const expected = parts[0]?.parts ?? 0;
  if (expected > 0 && new Set(parts.map((item) => item.part)).size === expected)
    found.answer = parts.map((item) => item.ts);
  return found;
}

/** What of a turn is already in its thread: the bot's own messages, every page, read by their metadata. */
export function turnMessageFinder(client: WebClient, identity: SlackIdentity, call: CountedCall) {
  return async (where: ThreadLocation, turnId: string): Promise<TurnMessages> => {
    const mine = await call('conversations.replies', async () => {
      const found: ThreadMessage[] = [];
      const pages = client.paginate('conversations.replies', {
        channel: where.channel,
        ts: where.threadTs,
        include_all_metadata: true,
        limit: 200,
      });
      for await (const page of pages) {
        for (const message of (page as ConversationsRepliesResponse).messages ?? []) {
          if (message.user === identity.botUserId || message.bot_id === identity.botId) found.push(message);
        }
      }
      return found;
    });
    return turnMessagesOf(mine, turnId);
  };
}
