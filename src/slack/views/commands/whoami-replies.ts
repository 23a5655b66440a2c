/** `/agent whoami` replies: the account, or which of the three problems stopped the check. */
import type { WhoamiOutcome } from '../../../commands/whoami-command.js';
import { describeError } from '../describe-error.js';
import { escapeMrkdwn, type Replies } from '../mrkdwn-reply.js';

function whoamiFailureText(outcome: Extract<WhoamiOutcome, { kind: 'whoami-failed' }>): string {
  const ref = `(ref: ${outcome.referenceId})`;
  if (outcome.problem === 'invalid-token') {
    const said = outcome.serviceMessage ? ` “${escapeMrkdwn(outcome.serviceMessage, 200)}”` : '';
    return `The bot's token is invalid: the agent service answered ${outcome.status ?? ''}${said}. An admin needs to set a valid AGENT_API_TOKEN ${ref}.`;
  }
  if (outcome.problem === 'wrong-address') {
    const answer = outcome.status ? `HTTP ${outcome.status}` : 'something that is not an account';
    return `The identity check got ${answer}: the API address or path is wrong. An admin needs to check AGENT_API_URL (the account's regional API address) ${ref}.`;
  }
  return describeError(outcome.error, outcome.referenceId);
}

export const whoamiReplies: Replies<WhoamiOutcome> = {
  whoami: (outcome) =>
    `Connected to *${escapeMrkdwn(outcome.accountName, 100)}* (account id ${outcome.accountId}).`,
  'whoami-failed': whoamiFailureText,
};
