/** Where a POST /alerts call sends its alert: `?channel=`, `?agent=`, `?team=`, checked, with defaults. */
import { isAgentId } from '../conversation/context/channel-agents.js';

/** Channels and private channels (groups): a DM is never an alert channel (nobody checks who reads it). */
const CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;

/** A workspace (`T…`) or an Enterprise Grid org (`E…`). */
const TEAM_ID = /^[TE][A-Z0-9]{2,}$/;

/**
 * The channel, agent and installation a call's query names, or the 400's problem. Unnamed, the channel is
 * ALERT_CHANNEL_ID (`channel`); the team is the one whose own token the call carries (`own`), else
 * with one workspace its installation (`only`).
 */
export function alertTarget(
  url: string | undefined,
  defaults: { channel: string | undefined; own: string | undefined; only: string | undefined },
): { channel: string; agentId: string | undefined; team: string } | string {
  const query = new URL(url ?? '/', 'http://localhost').searchParams;
  const channel = query.get('channel')?.trim() || defaults.channel;
  if (!channel) return 'no channel: add ?channel=<id> or set ALERT_CHANNEL_ID';
  if (!CHANNEL_ID.test(channel))
    return 'channel is not a Slack channel id (a channel C… or private channel G…; never a DM)';
  const agentId = query.get('agent')?.trim() || undefined;
  if (agentId !== undefined && !isAgentId(agentId)) return 'agent is not an agent id';
  const named = query.get('team')?.trim() || undefined;
  if (named !== undefined && !TEAM_ID.test(named)) return 'team is not a Slack workspace or org id';
  const team = named ?? defaults.own ?? defaults.only;
  if (!team) return 'this app serves several workspaces: add ?team=<workspace id T…, or org id E…>';
  return { channel, agentId, team };
}
