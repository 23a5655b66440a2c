/** `/agent channel …` replies (DESIGN "Channel agents"), each one section. */
import type { ChannelOutcome } from '../../../commands/channel-command.js';
import { codeText, escapeMrkdwn, NOTHING_CHANGED, type Replies } from '../mrkdwn-reply.js';
import { BIND_HINT } from './common-replies.js';

const code = (id: string) => `\`${codeText(id, 128)}\``;
/** Slack ids are letters and digits; anything else is not put into a `<#…>` sequence. */
const channelRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<#${id}>` : 'this channel');
const userRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<@${id}>` : 'an admin');
const before = (agentId: string | undefined) => (agentId === undefined ? 'none' : code(agentId));

/** " on connection `alias`" for an agent on an added service connection. */
const onConnection = (alias: string | undefined) =>
  alias === undefined ? '' : ` on connection ${code(alias)}`;

function watchText(watched: boolean | undefined): string {
  if (watched === undefined) return '';
  return watched
    ? ' New alerts other bots and integrations post here are investigated in their threads (`/agent channel investigate off` stops it).'
    : ' Alerts other bots and integrations post here are not investigated automatically (admins: `/agent channel investigate on`).';
}

function answerAllText(answerAll: boolean | undefined): string {
  if (answerAll === undefined) return '';
  return answerAll
    ? ' Every new top-level message people post here is answered in its thread, no mention needed (`/agent channel answer-all off` stops it).'
    : ' Only messages that mention the bot start a run here (admins: `/agent channel answer-all on` answers every message).';
}

function agentText(outcome: Extract<ChannelOutcome, { kind: 'channel-agent' }>): string {
  if (outcome.source === 'unbound' || outcome.agentId === undefined)
    return `${channelRef(outcome.channelId)} has no agent yet: ${BIND_HINT}.`;
  return outcome.source === 'channel'
    ? `New threads in ${channelRef(outcome.channelId)} use agent ${code(outcome.agentId)}${onConnection(outcome.connection)}${outcome.boundBy ? `, set by ${userRef(outcome.boundBy)}` : ''}. Admins can change it with \`/agent channel use &lt;agent-id&gt;\` or go back to the bot's agent with \`/agent channel reset\`.`
    : `New threads in ${channelRef(outcome.channelId)} use the bot's agent ${code(outcome.agentId)} (AGENT_ID). Admins can pick another with \`/agent channel use &lt;agent-id&gt;\`.`;
}

export const channelReplies: Replies<ChannelOutcome> = {
  'channel-answer-all': (outcome) =>
    outcome.on
      ? `Every new top-level message people inside post in ${channelRef(outcome.channelId)} is now answered in its thread, no mention needed${outcome.wasOn ? ' (it already was)' : ''}. Replies in the bot's threads stay follow-ups; bots, integrations and edits are left alone; RUNS_PER_PERSON_PER_HOUR applies. The bot must be a member of the channel.`
      : `Messages in ${channelRef(outcome.channelId)} are ${outcome.wasOn ? 'no longer' : 'not'} all answered: people mention the bot to ask.`,
  'channel-watch': (outcome) =>
    outcome.on
      ? `New top-level posts by other bots and integrations in ${channelRef(outcome.channelId)} are now investigated in their threads${outcome.wasOn ? ' (they already were)' : ''}, recoveries aside, within ALERT_COOLDOWN_MINUTES and ALERT_RUNS_PER_HOUR. The bot must be a member of the channel.`
      : `Posts by other bots and integrations in ${channelRef(outcome.channelId)} are ${outcome.wasOn ? 'no longer' : 'not'} investigated automatically. People can still mention the bot under any alert.`,
  'channel-agent': (outcome) =>
    agentText(outcome) + watchText(outcome.watched) + answerAllText(outcome.answerAll),
  'channel-bound': (outcome) =>
    `New threads in ${channelRef(outcome.channelId)} will use agent ${code(outcome.agentId ?? '')}${onConnection(outcome.connection)} (before: ${before(outcome.previousAgentId)}). Threads already started keep their agent and connection. The id is not checked until the first run: if it is wrong, that run says so.`,
  'channel-reset': (outcome) =>
    outcome.agentId === undefined
      ? `${channelRef(outcome.channelId)} has no agent now (before: ${before(outcome.previousAgentId)}): ${BIND_HINT}.`
      : `New threads in ${channelRef(outcome.channelId)} will use the bot's agent ${code(outcome.agentId)} again (before: ${before(outcome.previousAgentId)}). Threads already started keep their agent.`,
  'connection-unknown': (outcome) =>
    `There is no service connection \`${escapeMrkdwn(outcome.alias, 40).replace(/`/g, '')}\`. \`/agent connections\` lists them. ${NOTHING_CHANGED}`,
};
