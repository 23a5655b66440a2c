/** `/agent enable|disable` replies: the state the service reports, even when it is not the one asked for. */
import type { AgentStateOutcome } from '../../../commands/agent-state-command.js';
import { escapeMrkdwn, type Replies } from '../mrkdwn-reply.js';

export const agentStateReplies: Replies<AgentStateOutcome> = {
  'agent-state': (outcome) => {
    const agent = `\`${escapeMrkdwn(outcome.agentId, 100)}\``;
    const state = outcome.active ? 'enabled' : 'disabled';
    const reported = `the service reports \`active: ${outcome.active}\``;
    if (outcome.active === outcome.requested) return `Agent ${agent} is now *${state}* (${reported}).`;
    return `Asked to ${outcome.requested ? 'enable' : 'disable'} agent ${agent}, but ${reported}: it is *${state}*.`;
  },
};
