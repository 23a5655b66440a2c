/** `/agent connections …` replies (DESIGN "Many accounts"). Never a token: none reaches them. */
import type { ConnectionsOutcome } from '../../../commands/connections-command.js';
import type { Renderers } from '../../../commands/subcommand.js';
import type { ConnectionRow, RemoveResult } from '../../../connections/connection-admin.js';
import { connectionProblemSentence, NO_KEY_SENTENCE } from '../connection-replies.js';
import { summariseInline } from '../mrkdwn.js';
import { type CommandReply, escapeMrkdwn, NOTHING_CHANGED, reply } from '../mrkdwn-reply.js';

const alias = (name: string) => `\`${escapeMrkdwn(name, 40).replace(/`/g, '')}\``;
const CHANNELS_NAMED = 20;
/** How to bind a channel, with its placeholders escaped (a raw `<alias>` is a control sequence to Slack). */
const BIND_USAGE = '`/agent channel use &lt;agent-id&gt; on &lt;alias&gt;`';

const channelRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<#${id}>` : escapeMrkdwn(id, 30));

function renderRow(row: ConnectionRow): string {
  const head = `• ${alias(row.alias)}${row.source === 'environment' ? ' (AGENT_API_URL)' : ''} — region ${escapeMrkdwn(row.region, 80)}`;
  if (row.health === 'ok')
    return `${head} — account *${escapeMrkdwn(row.accountName, 80)}* (id ${row.accountId}) — :white_check_mark: healthy`;
  const known = row.accountName ? ` — account *${escapeMrkdwn(row.accountName, 80)}* when added` : '';
  return `${head}${known} — :x: failing: ${connectionProblemSentence(row.problem, row.error, row.region, row.referenceId)}`;
}

function renderRemoval(result: RemoveResult): CommandReply {
  switch (result.outcome) {
    case 'removed':
      return reply(`Removed the service connection ${alias(result.alias)}; its token is no longer kept.`);
    case 'unknown':
      return reply(`There is no service connection ${alias(result.alias)}. ${NOTHING_CHANGED}`);
    case 'default':
      return reply(
        `${alias(result.alias)} is the connection set by AGENT_API_URL and AGENT_API_TOKEN; it cannot be removed. ${NOTHING_CHANGED}`,
      );
    case 'in-use':
      return reply(
        `${alias(result.alias)} is still used by ${summariseInline(result.channels.map(channelRef), CHANNELS_NAMED)}. Bind ${result.channels.length === 1 ? 'that channel' : 'those channels'} to another agent first (\`/agent channel reset\` or ${BIND_USAGE}). ${NOTHING_CHANGED}`,
      );
  }
}

export const connectionsReplies: Renderers<ConnectionsOutcome, CommandReply> = {
  connections: (outcome) =>
    reply(
      '*Service connections*',
      outcome.rows.map(renderRow).join('\n'),
      `Add one with \`/agent connections add\`; bind a channel with ${BIND_USAGE}.`,
    ),
  'connection-form': (outcome) =>
    outcome.opened
      ? reply('Fill in the form that opened: the alias, the region address and the API token.')
      : reply(
          `The form could not be opened (ref: ${outcome.referenceId}). Run \`/agent connections add\` again.`,
        ),
  'connections-no-key': () => reply(NO_KEY_SENTENCE),
  'connection-remove': (outcome) => renderRemoval(outcome.result),
};
