import type { ConversationsMembersResponse, WebClient } from '@slack/web-api';
import type { ChannelMembership } from '../conversation/viewed-context.js';

/** Slack's maximum page size for `conversations.members`. */
const PAGE = 1_000;

/** Membership by `conversations.members`, stopping once found; past `maxMembers`, not found (fail closed). */
export function createSlackMembership(client: WebClient, maxMembers = 10_000): ChannelMembership {
  return {
    async isMember(channel, userId) {
      let seen = 0;
      for await (const page of client.paginate('conversations.members', { channel, limit: PAGE })) {
        const members = (page as ConversationsMembersResponse).members ?? [];
        if (members.includes(userId)) return true;
        seen += members.length;
        if (seen >= maxMembers) break;
      }
      return false;
    },
  };
}
