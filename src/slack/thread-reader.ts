import type { ConversationsRepliesResponse, WebClient } from '@slack/web-api';
import type { ThreadMessage, ThreadReader } from '../conversation/context/context-ports.js';

/** Messages per `conversations.replies` page (Slack's advised maximum is 200). */
const PAGE_SIZE = 200;
/** Pages read at most (2,000 messages): a longer thread is read from its start, the rest counted. */
const MAX_PAGES = 10;

/**
 * The ThreadReader on `conversations.replies`: read once per session or follow-up, never per poll
 * (Tier 3, far lower outside the Marketplace). Errors propagate: the caller runs without context.
 */
export function createSlackThreadReader(client: WebClient): ThreadReader {
  return {
    async read({ channel, threadTs }) {
      const messages: ThreadMessage[] = [];
      let pages = 0;
      const replies = client.paginate('conversations.replies', { channel, ts: threadTs, limit: PAGE_SIZE });
      for await (const page of replies) {
        messages.push(...(((page as ConversationsRepliesResponse).messages ?? []) as ThreadMessage[]));
        pages += 1;
        if (pages === MAX_PAGES && page.response_metadata?.next_cursor) return { messages, truncated: true };
      }
      return { messages, truncated: false };
    },
  };
}
