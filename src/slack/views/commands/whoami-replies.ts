/** `/agent whoami` replies: the account, or which of the three problems stopped the check. */
import type { Renderers } from '../../../commands/subcommand.js';
import type { WhoamiOutcome } from '../../../commands/whoami-command.js';
import { describeError } from '../describe-error.js';
import { type CommandReply, escapeMrkdwn, reply } from '../mrkdwn-reply.js';

function renderWhoamiFailure(outcome: Extract<WhoamiOutcome, { kind: 'whoami-failed' }>): CommandReply {
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

export const whoamiReplies: Renderers<WhoamiOutcome, CommandReply> = {
  whoami: (outcome) =>
    reply(`Connected to *${escapeMrkdwn(outcome.accountName, 100)}* (account id ${outcome.accountId}).`),
  'whoami-failed': renderWhoamiFailure,
};
