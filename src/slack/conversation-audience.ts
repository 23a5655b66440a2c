import type { ConversationsInfoResponse, ConversationsMembersResponse, WebClient } from '@slack/web-api';
import type { AudienceSource, ConversationFacts } from '../conversation/access/audience.js';

/** The fields of `conversations.info`'s channel this module reads. */
type ChannelInfo = Pick<
  NonNullable<ConversationsInfoResponse['channel']>,
  'is_im' | 'is_ext_shared' | 'is_pending_ext_shared' | 'is_shared' | 'is_org_shared' | 'num_members'
>;

/**
 * Shared with another organisation: Slack Connect, a pending invitation (they may be in before the
 * answer lands), or `is_shared` outside one Grid org (older payloads carry only that).
 */
export function sharedOutside(channel: ChannelInfo): boolean {
  return (
    channel.is_ext_shared === true ||
    channel.is_pending_ext_shared === true ||
    (channel.is_shared === true && channel.is_org_shared !== true)
  );
}

/** Page size for `conversations.members` (Slack's maximum is 1,000; it suggests no more than 200). */
const MEMBERS_PAGE = 200;

/**
 * Who can read a conversation (DESIGN "Who reads the answer"): `conversations.info` for its kind
 * and sharing flags, and up to `memberLimit` members their ids, each then judged by the inside check.
 */
export function createSlackAudienceSource(client: WebClient, memberLimit: number): AudienceSource {
  async function membersOf(channel: string): Promise<string[]> {
    const members: string[] = [];
    for await (const page of client.paginate('conversations.members', { channel, limit: MEMBERS_PAGE })) {
      members.push(...((page as ConversationsMembersResponse).members ?? []));
    }
    return members;
  }

  return {
    async describe(channel): Promise<ConversationFacts> {
      const info = await client.conversations.info({ channel, include_num_members: true });
      const facts = (info.channel ?? {}) as ChannelInfo;
      if (facts.is_im) return { isIm: true, externallyShared: false };
      const externallyShared = sharedOutside(facts);
      // Without a count Slack said nothing about size: read the members, as for a small one.
      const small = facts.num_members === undefined || facts.num_members <= memberLimit;
      const members = !externallyShared && small ? await membersOf(channel) : undefined;
      return { isIm: false, externallyShared, members };
    },
  };
}
