import { DEFAULT_TEAM_ID } from './defaults.js';
import { nextSlackTs } from './ts-clock.js';

/**
 * The events that say who can read a conversation changed, shaped like Slack's
 * (https://docs.slack.dev/reference/events/channel_shared, …/member_joined_channel): a channel
 * shared with or unshared from another organisation, a member joining or leaving.
 */

type Extra = Record<string, unknown>;

/** `channel_shared`: the channel was shared with the workspace (or org) `connectedTeamId`. */
export function channelSharedEvent(channel: string, connectedTeamId = 'T0OTHERORG'): Extra {
  return { type: 'channel_shared', connected_team_id: connectedTeamId, channel, event_ts: nextSlackTs() };
}

/** `channel_unshared`: the channel is no longer shared with `previousTeamId`. */
export function channelUnsharedEvent(
  channel: string,
  previousTeamId = 'T0OTHERORG',
  stillShared = false,
): Extra {
  return {
    type: 'channel_unshared',
    previously_connected_team_id: previousTeamId,
    channel,
    is_ext_shared: stillShared,
    event_ts: nextSlackTs(),
  };
}

/** `member_joined_channel` / `member_left_channel` (`channel_type` C public, G private). */
export function membershipEvent(
  kind: 'joined' | 'left',
  input: { user: string; channel: string; team?: string; inviter?: string },
): Extra {
  return {
    type: kind === 'joined' ? 'member_joined_channel' : 'member_left_channel',
    user: input.user,
    channel: input.channel,
    channel_type: input.channel.startsWith('G') ? 'G' : 'C',
    team: input.team ?? DEFAULT_TEAM_ID,
    ...(kind === 'joined' && input.inviter ? { inviter: input.inviter } : {}),
    event_ts: nextSlackTs(),
  };
}
