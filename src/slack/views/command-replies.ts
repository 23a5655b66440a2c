/**
 * `/agent` replies as Slack messages: pure rendering of a CommandOutcome into mrkdwn sections
 * (https://docs.slack.dev/reference/block-kit/blocks/section-block). Every reply goes back
 * ephemerally through response_url; the listener adds `response_type`.
 */
import type { CommandOutcome } from '../../commands/command-outcome.js';
import { ADMIN_AUDIENCE, ADMINS_ARE, HELP_ENTRIES } from '../../commands/help-text.js';
import type { ParseResult } from '../../commands/parse-command.js';
import { renderAccounts, renderCapacityFailure, renderCreated, renderMoved } from './account-replies.js';
import { BIND_HINT, renderChannelOutcome } from './channel-replies.js';
import { renderConnectionsOutcome } from './connection-replies.js';
import { describeError } from './describe-error.js';
import { type CommandReply, escapeMrkdwn, NOTHING_CHANGED, reply, reserved } from './mrkdwn-reply.js';
import { renderScheduleOutcome } from './schedule-replies.js';

export { type CommandReply, escapeMrkdwn } from './mrkdwn-reply.js';

/** The help: every subcommand with a one-line description and an example. */
export function renderHelp(unknown?: string): CommandReply {
  const intro = unknown
    ? `\`${escapeMrkdwn(unknown, 60)}\` is not an \`/agent\` command. Here is what it can do:`
    : '*`/agent` commands*';
  const lines = HELP_ENTRIES.map(
    (entry) =>
      `• \`${reserved(entry.usage)}\`${entry.adminOnly ? ' _(admins)_' : ''} — ${reserved(entry.description)}\n      e.g. \`${reserved(entry.example)}\``,
  );
  return reply(intro, lines.join('\n'), `_Admins: ${ADMINS_ARE}._`);
}

/** What the HTTP ack shows at once for commands that take a while; undefined → an empty ack. */
export function renderAcknowledgement(parsed: ParseResult): string | undefined {
  if (!parsed.ok) return undefined;
  const slow = parsed.command.kind === 'export' || parsed.command.kind === 'capacity-move';
  return slow ? 'Working on it…' : undefined;
}

function renderExported(outcome: Extract<CommandOutcome, { kind: 'exported' }>): CommandReply {
  const sent = outcome.delivery?.ok === true;
  const lines = outcome.files.map(
    (f) => `• ${f.type}: ${f.count} saved object${f.count === 1 ? '' : 's'} (\`${f.filename}\`)`,
  );
  const failed = outcome.failures.map((f) => `• ${f.type}: ${describeError(f.error, f.referenceId)}`);
  const head =
    outcome.files.length === 0
      ? 'The export failed:'
      : sent
        ? 'Exported — the files are in your direct messages with the bot:'
        : `Exported, but sending the files to you failed (ref: ${outcome.delivery?.ok === false ? outcome.delivery.referenceId : '-'}):`;
  return reply(head, [...lines, ...failed].join('\n'));
}

function renderWhoamiFailure(outcome: Extract<CommandOutcome, { kind: 'whoami-failed' }>): CommandReply {
  const ref = `(ref: ${outcome.referenceId})`;
  if (outcome.problem === 'invalid-token') {
    const said = outcome.serviceMessage ? ` “${escapeMrkdwn(outcome.serviceMessage, 200)}”` : '';
    return reply(
      `The bot's token is invalid: the agent service answered ${outcome.status ?? ''}${said}. An admin needs to set a valid AGENT_API_TOKEN ${ref}.`,
    );
  }
  if (outcome.problem === 'wrong-address') {
    const answer = outcome.status ? `HTTP ${outcome.status}` : 'something that is not an account';
    return reply(
      `The identity check got ${answer}: the API address or path is wrong. An admin needs to check AGENT_API_URL (the account's regional API address) ${ref}.`,
    );
  }
  return reply(describeError(outcome.error, outcome.referenceId));
}

/** The reply for any outcome. */
export function renderCommandOutcome(outcome: CommandOutcome): CommandReply {
  switch (outcome.kind) {
    case 'help':
      return renderHelp(outcome.unknown);
    case 'usage':
      return reply(
        `That didn't work: ${escapeMrkdwn(outcome.problem, 300)}.`,
        `Usage: \`${reserved(outcome.usage)}\``,
      );
    case 'refused':
      return reply(`Only ${ADMIN_AUDIENCE} can run \`${reserved(outcome.usage)}\`. ${NOTHING_CHANGED}`);
    case 'not-configured':
      return reply(
        'Account commands are not configured: the bot has no ACCOUNT_API_TOKEN (the main account’s API token). An operator needs to set it.',
      );
    case 'home-only':
      return reply(
        `\`${reserved(outcome.usage)}\` is for the home workspace only: it uses the operator's own service account, which serves the workspaces the operator named (HOME_TEAM_IDS). Nothing was sent. Here, ${BIND_HINT}.`,
      );
    case 'channel-unbound':
      return reply(
        `This channel has no agent in this workspace, so nothing was sent to any service: ${BIND_HINT}.`,
      );
    case 'alert-webhook':
      return reply(
        `${outcome.rotated ? 'This workspace has a new alert token: the old one no longer works.' : 'This workspace’s own alert address (only you see this):'}\n• Address: \`POST ${reserved(outcome.address)}\`\n• Token: \`${outcome.token}\` (send it as \`Authorization: Bearer …\`, \`X-Alert-Token\` or the body’s \`token\`)`,
        'Alerts sent with it are investigated in this workspace’s channels only, on the channel’s own agent and connection. Keep the token secret; `/agent alerts webhook rotate` replaces it.',
      );
    case 'alert-webhook-no-key':
      return reply(
        'This workspace’s alert token cannot be kept: the bot has no STATE_ENCRYPTION_KEY to seal it with. An operator needs to set it.',
      );
    case 'whoami':
      return reply(
        `Connected to *${escapeMrkdwn(outcome.accountName, 100)}* (account id ${outcome.accountId}).`,
      );
    case 'whoami-failed':
      return renderWhoamiFailure(outcome);
    case 'agent-state':
      return renderAgentState(outcome);
    case 'accounts':
      return renderAccounts(outcome.accounts);
    case 'account-created':
      return renderCreated(outcome);
    case 'capacity-moved':
      return renderMoved(outcome);
    case 'capacity-failed':
      return renderCapacityFailure(outcome.failure, outcome.referenceId);
    case 'exported':
      return renderExported(outcome);
    case 'service-error':
      return reply(describeError(outcome.error, outcome.referenceId));
    case 'channel-agent':
    case 'channel-bound':
    case 'channel-reset':
    case 'channel-watch':
    case 'channel-answer-all':
    case 'channel-missing':
      return renderChannelOutcome(outcome);
    case 'connections':
    case 'connection-form':
    case 'connections-no-key':
    case 'connection-remove':
    case 'connection-unknown':
      return renderConnectionsOutcome(outcome);
    case 'schedule-added':
    case 'schedule-refused':
    case 'schedules':
    case 'schedule-removed':
    case 'schedule-unknown':
      return renderScheduleOutcome(outcome);
  }
}

function renderAgentState(outcome: Extract<CommandOutcome, { kind: 'agent-state' }>): CommandReply {
  const agent = `\`${escapeMrkdwn(outcome.agentId, 100)}\``;
  const state = outcome.active ? 'enabled' : 'disabled';
  const reported = `the service reports \`active: ${outcome.active}\``;
  if (outcome.active === outcome.requested) return reply(`Agent ${agent} is now *${state}* (${reported}).`);
  return reply(
    `Asked to ${outcome.requested ? 'enable' : 'disable'} agent ${agent}, but ${reported}: it is *${state}*.`,
  );
}
