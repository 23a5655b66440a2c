import type { CommandOutcome } from '../../commands/command-outcome.js';
import type { CommandReply } from './mrkdwn-reply.js';
import { neutraliseSlackControls } from './neutralise.js';

type ChannelOutcome = Extract<
  CommandOutcome,
  { kind: 'channel-agent' | 'channel-bound' | 'channel-reset' | 'channel-missing' }
>;

/** An id inside backticks: no backticks, no mrkdwn-reserved characters, no control sequences. */
const code = (id: string) =>
  `\`${neutraliseSlackControls(id)
    .replace(/[`<>&]/g, '')
    .slice(0, 128)}\``;
/** Slack ids are letters and digits; anything else is not put into a `<#…>` sequence. */
const channelRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<#${id}>` : 'this channel');
const userRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<@${id}>` : 'an admin');
/** " on connection `alias`" for an agent on an added service connection. */
const onConnection = (alias: string | undefined) =>
  alias === undefined ? '' : ` on connection ${code(alias)}`;

/** `/agent channel …` replies (DESIGN "Channel agents"). */
export function renderChannelOutcome(outcome: ChannelOutcome): CommandReply {
  const text = channelText(outcome);
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

function channelText(outcome: ChannelOutcome): string {
  switch (outcome.kind) {
    case 'channel-missing':
      return `\`${outcome.usage}\` works in a channel: run it in the channel you mean.`;
    case 'channel-agent':
      return outcome.source === 'channel'
        ? `New threads in ${channelRef(outcome.channelId)} use agent ${code(outcome.agentId)}${onConnection(outcome.connection)}${outcome.boundBy ? `, set by ${userRef(outcome.boundBy)}` : ''}. Admins can change it with \`/agent channel use <agent-id>\` or go back to the bot's agent with \`/agent channel reset\`.`
        : `New threads in ${channelRef(outcome.channelId)} use the bot's agent ${code(outcome.agentId)} (AGENT_ID). Admins can pick another with \`/agent channel use <agent-id>\`.`;
    case 'channel-bound':
      return `New threads in ${channelRef(outcome.channelId)} will use agent ${code(outcome.agentId)}${onConnection(outcome.connection)} (before: ${code(outcome.previousAgentId)}). Threads already started keep their agent and connection. The id is not checked until the first run: if it is wrong, that run says so.`;
    case 'channel-reset':
      return `New threads in ${channelRef(outcome.channelId)} will use the bot's agent ${code(outcome.agentId)} again (before: ${code(outcome.previousAgentId)}). Threads already started keep their agent.`;
  }
}
