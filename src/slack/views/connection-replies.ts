/** Why a service connection fails its identity check (DESIGN "Many accounts"). No token reaches it. */
import type { IdentityProblem } from '../../agent-api/index.js';
import { isAgentApiError, RedirectRefusedError, RegionMismatchError } from '../../agent-api/index.js';
import { describeError } from './describe-error.js';
import { escapeMrkdwn } from './mrkdwn-reply.js';

/** Why nothing can be added without the key; the variable is named. */
export const NO_KEY_SENTENCE =
  "Service connections can't be added: their tokens are kept encrypted, and STATE_ENCRYPTION_KEY is not set. An admin needs to set it (32 bytes in base64: `openssl rand -base64 32`) and restart the bot. Nothing was saved.";

function serviceWords(error: unknown): string {
  if (!isAgentApiError(error)) return '';
  const status = error.status === undefined ? '' : `HTTP ${error.status}`;
  const words = error.serviceMessage ? ` “${escapeMrkdwn(error.serviceMessage, 120)}”` : '';
  return status || words ? ` (${status}${words})` : '';
}

/** Why an identity check of the connection at `region` failed: token, address, region or service. */
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
      if (error instanceof RedirectRefusedError) {
        // Both addresses: the one typed, and where it pointed (never followed).
        const to = error.location ? ` to ${escapeMrkdwn(error.location, 120)}` : '';
        return `${escapeMrkdwn(error.address, 120)} answered with a redirect (HTTP ${error.status ?? '3xx'})${to}, which the bot never follows (the token would go to another address): enter the service's own regional address.`;
      }
      return `${where} did not answer as the agent service${serviceWords(error)}: check the region address (a URL or a host like api-eu.logz.io).`;
    case 'region-mismatch':
      return error instanceof RegionMismatchError
        ? `The token belongs to region ${escapeMrkdwn(error.accountRegion, 30)}, but ${where} serves region ${escapeMrkdwn(error.serverRegion, 30)}: use the address of the account's region.`
        : `The token belongs to another region than ${where}: use the address of the account's region.`;
    case 'unavailable':
      return describeError(error, referenceId);
  }
}
