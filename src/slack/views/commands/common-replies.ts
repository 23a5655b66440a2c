/** Replies any `/agent` subcommand may end in: help, usage, a refusal, why nothing was sent. */
import { ADMIN_AUDIENCE, ADMINS_ARE, HELP_ENTRIES } from '../../../commands/help-text.js';
import type { CommonOutcome } from '../../../commands/subcommand.js';
import { describeError } from '../describe-error.js';
import { escapeMrkdwn, NOTHING_CHANGED, type Replies, reply, reserved } from '../mrkdwn-reply.js';

/** The sentence naming the command that gives a channel of another installation its agent. */
export const BIND_HINT =
  'an admin can bind one of this workspace’s own service connections with `/agent channel use &lt;agent-id&gt; on &lt;alias&gt;` (`/agent connections add` adds one)';

/** The help: every subcommand with a one-line description and an example. */
export function renderHelp(unknown?: string) {
  const intro = unknown
    ? `\`${escapeMrkdwn(unknown, 60)}\` is not an \`/agent\` command. Here is what it can do:`
    : '*`/agent` commands*';
  const lines = HELP_ENTRIES.map(
    (entry) =>
      `• \`${reserved(entry.usage)}\`${entry.adminOnly ? ' _(admins)_' : ''} — ${reserved(entry.description)}\n      e.g. \`${reserved(entry.example)}\``,
  );
  return reply(intro, lines.join('\n'), `_Admins: ${ADMINS_ARE}._`);
}

export const commonReplies: Replies<CommonOutcome> = {
  help: (outcome) => renderHelp(outcome.unknown),
  usage: (outcome) =>
    reply(
      `That didn't work: ${escapeMrkdwn(outcome.problem, 300)}.`,
      `Usage: \`${reserved(outcome.usage)}\``,
    ),
  refused: (outcome) => `Only ${ADMIN_AUDIENCE} can run \`${reserved(outcome.usage)}\`. ${NOTHING_CHANGED}`,
  'not-configured': () =>
    'Account commands are not configured: the bot has no ACCOUNT_API_TOKEN (the main account’s API token). An operator needs to set it.',
  'home-only': (outcome) =>
    `\`${reserved(outcome.usage)}\` is for the home workspace only: it uses the operator's own service account, which serves the workspaces the operator named (HOME_TEAM_IDS). Nothing was sent. Here, ${BIND_HINT}.`,
  'channel-unbound': () =>
    `This channel has no agent in this workspace, so nothing was sent to any service: ${BIND_HINT}.`,
  'channel-missing': (outcome) =>
    `\`${reserved(outcome.usage)}\` works in a channel: run it in the channel you mean.`,
  'service-error': (outcome) => describeError(outcome.error, outcome.referenceId),
};
