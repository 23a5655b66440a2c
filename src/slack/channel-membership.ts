import type { WebClient } from '@slack/web-api';
import type { ChannelMembership } from '../conversation/viewed-context.js';

/** Slack's maximum page size for `conversations.members`. */
const PAGE = 1_000;

/**
 * Whether a person is a member of a channel, from `conversations.members`, stopping once found. Past
 * `maxMembers` the person counts as not found (fail closed: the viewed place then gives no context).
 */
export function createSlackMembership(client: WebClient, maxMembers = 10_000): ChannelMembership {
  return {
    async isMember(channel, userId) {
      let cursor: string | undefined;
      let seen = 0;
      do {
        const page = await client.conversations.members({ channel, limit: PAGE, cursor });
        const members = page.members ?? [];
        if (members.includes(userId)) return true;
        seen += members.length;
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor && seen < maxMembers);
      return false;
    },
  };
}
