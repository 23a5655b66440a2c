/**
 * Service connections in words (DESIGN "Many accounts"): the `/agent connections …` replies and
 * the add form's verdicts. Never a token: none reaches this module.
 */
import type { IdentityProblem } from '../../agent-api/index.js';
import { isAgentApiError, RedirectRefusedError, RegionMismatchError } from '../../agent-api/index.js';
import type { CommandOutcome } from '../../commands/command-outcome.js';
import type { ConnectionRow } from '../../connections/connection-admin.js';
import { describeError } from './describe-error.js';
import { summariseInline } from './mrkdwn.js';
import { type CommandReply, escapeMrkdwn, NOTHING_CHANGED, reply } from './mrkdwn-reply.js';

type ConnectionsOutcome = Extract<
  CommandOutcome,
  {
    kind:
      | 'connections'
      | 'connection-form'
      | 'connections-no-key'
      | 'connection-remove'
      | 'connection-unknown';
  }
>;

/** Why nothing can be added without the key; the variable is named. */
export const NO_KEY_SENTENCE =
  "Service connections can't be added: their tokens are kept encrypted, and STATE_ENCRYPTION_KEY is not set. An admin needs to set it (32 bytes in base64: `openssl rand -base64 32`) and restart the bot. Nothing was saved.";

const alias = (name: string) => `\`${escapeMrkdwn(name, 40).replace(/`/g, '')}\``;
/** The channels named in one sentence; the rest are counted. */
const CHANNELS_NAMED = 20;
/** How to bind a channel, with its placeholders escaped (a raw `<alias>` is a control sequence to Slack). */
export const BIND_USAGE = '`/agent channel use &lt;agent-id&gt; on &lt;alias&gt;`';

const channelRef = (id: string) => (/^[A-Z0-9]+$/.test(id) ? `<#${id}>` : escapeMrkdwn(id, 30));

/** What the service's words were, for a sentence. */
function serviceWords(error: unknown): string {
  if (!isAgentApiError(error)) return '';
  const status = error.status === undefined ? '' : `HTTP ${error.status}`;
  const words = error.serviceMessage ? ` “${escapeMrkdwn(error.serviceMessage, 120)}”` : '';
  return status || words ? ` (${status}${words})` : '';
}

/**
 * Why an identity check failed, for one connection at `region`: the token, the address, the
 * region, or the service (then the usual sentence of describe-error.ts, with its reference id).
 */
export function connectionProblemSentence(
  problem: IdentityProblem,
  error: unknown,
  region: string,
  referenceId: string,
): string {
  const where = escapeMrkdwn(region, 80);
  switch (problem) {
    case 'token-rejected':
      return `The agent service at ${where} rejected the token${serviceWords(error)}: use an API token of the account that owns the agents.`;
    case 'not-the-service':
      if (error instanceof RedirectRefusedError) return redirectSentence(error);
      return `${where} did not answer as the agent service${serviceWords(error)}: check the region address (a URL or a host like api-eu.logz.io).`;
    case 'region-mismatch':
      return error instanceof RegionMismatchError
        ? `The token belongs to region ${escapeMrkdwn(error.accountRegion, 30)}, but ${where} serves region ${escapeMrkdwn(error.serverRegion, 30)}: use the address of the account's region.`
        : `The token belongs to another region than ${where}: use the address of the account's region.`;
    case 'unavailable':
      return describeError(error, referenceId);
  }
}

/** A redirect names both addresses: the one typed, and where it pointed (never followed). */
function redirectSentence(error: RedirectRefusedError): string {
  const to = error.location ? ` to ${escapeMrkdwn(error.location, 120)}` : '';
  return `${escapeMrkdwn(error.address, 120)} answered with a redirect (HTTP ${error.status ?? '3xx'})${to}, which the bot never follows (the token would go to another address): enter the service's own regional address.`;
}

function renderRow(row: ConnectionRow): string {
  const head = `• ${alias(row.alias)}${row.source === 'environment' ? ' (AGENT_API_URL)' : ''} — region ${escapeMrkdwn(row.region, 80)}`;
  if (row.health === 'ok') {
    return `${head} — account *${escapeMrkdwn(row.accountName, 80)}* (id ${row.accountId}) — :white_check_mark: healthy`;
  }
  const known = row.accountName ? ` — account *${escapeMrkdwn(row.accountName, 80)}* when added` : '';
  return `${head}${known} — :x: failing: ${connectionProblemSentence(row.problem, row.error, row.region, row.referenceId)}`;
}

export function renderConnectionsOutcome(outcome: ConnectionsOutcome): CommandReply {
  switch (outcome.kind) {
    case 'connections':
      return reply(
        '*Service connections*',
        outcome.rows.map(renderRow).join('\n'),
        `Add one with \`/agent connections add\`; bind a channel with ${BIND_USAGE}.`,
      );
    case 'connection-form':
      return outcome.opened
        ? reply('Fill in the form that opened: the alias, the region address and the API token.')
        : reply(
            `The form could not be opened (ref: ${outcome.referenceId}). Run \`/agent connections add\` again.`,
          );
    case 'connections-no-key':
      return reply(NO_KEY_SENTENCE);
    case 'connection-unknown':
      return reply(
        `There is no service connection ${alias(outcome.alias)}. \`/agent connections\` lists them. ${NOTHING_CHANGED}`,
      );
    case 'connection-remove':
      return renderRemoval(outcome.result);
  }
}

function renderRemoval(
  result: Extract<ConnectionsOutcome, { kind: 'connection-remove' }>['result'],
): CommandReply {
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
