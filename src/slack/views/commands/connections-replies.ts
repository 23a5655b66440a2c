/** `/agent connections …` replies (DESIGN "Many accounts"). Never a token: none reaches them. */
import type { ConnectionsOutcome } from '../../../commands/connections-command.js';
import type { ConnectionRow, RemoveResult } from '../../../connections/connection-admin.js';
import { connectionProblemSentence, NO_KEY_SENTENCE } from '../connection-replies.js';
import { summariseInline } from '../mrkdwn.js';
import { escapeMrkdwn, NOTHING_CHANGED, type Replies, reply } from '../mrkdwn-reply.js';

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

function removalText(result: RemoveResult): string {
  switch (result.outcome) {
    case 'removed':
      return `Removed the service connection ${alias(result.alias)}; its token is no longer kept.`;
    case 'unknown':
      return `There is no service connection ${alias(result.alias)}. ${NOTHING_CHANGED}`;
    case 'default':
      return `${alias(result.alias)} is the connection set by AGENT_API_URL and AGENT_API_TOKEN; it cannot be removed. ${NOTHING_CHANGED}`;
    case 'in-use':
      return `${alias(result.alias)} is still used by ${summariseInline(result.channels.map(channelRef), CHANNELS_NAMED)}. Bind ${result.channels.length === 1 ? 'that channel' : 'those channels'} to another agent first (\`/agent channel reset\` or ${BIND_USAGE}). ${NOTHING_CHANGED}`;
  }
}

export const connectionsReplies: Replies<ConnectionsOutcome> = {
  connections: (outcome) =>
    reply(
      '*Service connections*',
      outcome.rows.map(renderRow).join('\n'),
      `Add one with \`/agent connections add\`; bind a channel with ${BIND_USAGE}.`,
    ),
  'connection-form': (outcome) =>
    outcome.opened
      ? 'Fill in the form that opened: the alias, the region address and the API token.'
      : `The form could not be opened (ref: ${outcome.referenceId}). Run \`/agent connections add\` again.`,
  'connections-no-key': () => NO_KEY_SENTENCE,
  'connection-remove': (outcome) => removalText(outcome.result),
};
