/** One sentence a person can act on for each failure (DESIGN "Errors a person can act on"). */
import { randomBytes } from 'node:crypto';
import {
  AgentApiErrorCode,
  isAgentApiError,
  parseRegionMismatch,
  type RedirectRefusedError,
  RegionMismatchError,
} from '../../agent-api/errors.js';
import { escapedText } from './mrkdwn.js';
import { codeText } from './mrkdwn-reply.js';
import { neutraliseSlackControls } from './neutralise.js';

/** A short random id (8 hex characters) to quote in the thread and in the log line, for admins. */
export const newReferenceId = (): string => randomBytes(4).toString('hex');

/** What describeError reads from an error; also accepts look-alikes from another copy of errors.ts. */
type CodedError = { code: string } & Partial<
  Pick<RegionMismatchError, 'message' | 'status' | 'serviceMessage' | 'serviceErrorCode' | 'path'> &
    Pick<RegionMismatchError, 'accountRegion' | 'serverRegion'> &
    Pick<RedirectRefusedError, 'address'>
>;

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(AgentApiErrorCode));

function asCodedError(error: unknown): CodedError | undefined {
  if (isAgentApiError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (error as CodedError) : undefined;
}

/** The agent id of an agent-scoped path (`/v2/ai-agent/<id>/…`), for the sentence. */
function agentIdIn(path: string | undefined): string | undefined {
  const segment = /\/ai-agent\/([^/?]+)/.exec(path ?? '')?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A 404 about one agent: its id is unknown to the service, or the agent is disabled. */
function agentUnavailableSentence(error: CodedError): string {
  const id = agentIdIn(error.path);
  const shown = id ? codeText(id, 80) : undefined;
  const agent = shown ? `the agent \`${shown}\`` : 'this agent';
  if (/\/(enable|disable)$/.test(error.path ?? ''))
    return `The agent service doesn't know ${agent} — check the agent id (AGENT_ID, or the one given to the command)`;
  const enable = shown ? `/agent enable ${shown}` : '/agent enable';
  return `The agent service says ${agent} is disabled or unknown — an admin can turn it on with \`${enable}\``;
}

function regionSentence(error: CodedError): string {
  const regions =
    error instanceof RegionMismatchError || (error.accountRegion && error.serverRegion)
      ? { accountRegion: error.accountRegion, serverRegion: error.serverRegion }
      : parseRegionMismatch(`${error.serviceMessage ?? ''} ${error.message ?? ''}`);
  const where = regions
    ? `region ${escapedText(regions.accountRegion ?? '', 40)} but the bot talks to ${escapedText(regions.serverRegion ?? '', 40)}`
    : 'another region than the one the bot talks to';
  return `The agent service says the bot's token belongs to ${where}; an admin needs to set AGENT_API_URL to the account's region`;
}

/** The service's own words, made safe and short enough for one sentence. */
function quoted(serviceMessage: string | undefined): string {
  const text = neutraliseSlackControls(serviceMessage ?? '')
    .replace(/\s+/g, ' ')
    .replace(/[.\s]+$/, '')
    .trim();
  // Escaped before it is cut: the service's words are not mrkdwn (`expected <string>`).
  return text ? `: “${escapedText(text, 300)}”` : '';
}

/** Each code's sentence, without the final period (the reference id goes before it). */
const SENTENCES: Record<AgentApiErrorCode, (error: CodedError) => string> = {
  // The account endpoints take the main account's token.
  token_rejected: (error) =>
    `The agent service rejected the bot's API token — an admin needs to check ${error.path?.includes('/account-management') ? 'ACCOUNT_API_TOKEN' : 'AGENT_API_TOKEN'}`,
  agent_disabled: () => 'This agent is disabled — an admin can turn it on with `/agent enable`',
  agent_unavailable: agentUnavailableSentence,
  maintenance: () => 'The agent service is down for maintenance — please try again later',
  region_mismatch: regionSentence,
  rate_limited: () =>
    'The agent service is getting too many requests right now — please try again in a minute',
  turn_in_progress: () =>
    'The agent is still working on the previous message in this thread — wait for its answer, then send yours again',
  rejected_request: (error) =>
    `The agent service rejected the request${quoted(error.serviceMessage) || (error.serviceErrorCode ? ` (${error.serviceErrorCode})` : '')} — please rephrase or check the command`,
  unknown_endpoint: () =>
    "The agent service doesn't know the address the bot called — an admin needs to check AGENT_API_URL (the account's regional API address) and the API path settings",
  http_error: (error) =>
    `The agent service answered with an unexpected error${error.status ? ` (HTTP ${error.status})` : ''}${quoted(error.serviceMessage)} — please try again later`,
  redirected: (error) =>
    `The agent service address ${error.address ? `${escapedText(neutraliseSlackControls(error.address), 120)} ` : ''}answered with a redirect${error.status ? ` (HTTP ${error.status})` : ''}, which the bot never follows (its token would go to another address) — an admin needs to check the connection's address`,
  network: () => "The bot couldn't reach the agent service — please try again in a few minutes",
  timeout: () => 'The agent service took too long to respond — please try again in a moment',
  invalid_response: () =>
    "The agent service sent a response the bot couldn't understand — please try again, and tell an admin if it keeps happening",
  empty_answer: (error) =>
    `The agent service answered, but ${escapedText(neutraliseSlackControls(error.message ?? 'with nothing in it'), 200)} — please try again, and tell an admin if it keeps happening`,
  not_configured: () =>
    "Account commands aren't set up — an admin needs to set ACCOUNT_API_TOKEN for the bot",
  invalid_input: (error) =>
    `The bot did not send this request, which the service would refuse: ${escapedText(neutraliseSlackControls(error.message ?? ''), 300)}`,
};

/** connections/connection-clients.ts failures, by code (no import from that layer). */
const CONNECTION_SENTENCES: Record<string, (alias: string) => string> = {
  unknown_connection: (alias) =>
    `The service connection ${alias} this conversation uses is gone — an admin can add it again with \`/agent connections add\`, or start a new thread to use the channel's current one`,
  address_not_allowed: (alias) =>
    `The service connection ${alias} this conversation uses points at an address that is not the agent service's (a regional API host, or one in CONNECTION_ALLOWED_HOSTS) — an admin needs to remove it and add it again with \`/agent connections add\``,
  encryption_key_missing: (alias) =>
    `The token of the service connection ${alias} can't be opened — an admin needs to set STATE_ENCRYPTION_KEY to the key it was added with`,
};

function connectionSentence(error: unknown): string | undefined {
  const { code, alias } = (error ?? {}) as { code?: unknown; alias?: unknown };
  const sentence = typeof code === 'string' ? CONNECTION_SENTENCES[code] : undefined;
  if (!sentence || typeof alias !== 'string') return undefined;
  return sentence(`\`${codeText(alias, 40)}\``);
}

const UNKNOWN =
  "Something went wrong on the bot's side — please try again, and tell an admin if it keeps happening";

/** Exactly one sentence for the thread, ending with the reference id: "… (ref: a1b2c3d4).". */
export function describeError(error: unknown, referenceId: string): string {
  const coded = asCodedError(error);
  const sentence = coded
    ? SENTENCES[coded.code as AgentApiErrorCode](coded)
    : (connectionSentence(error) ?? UNKNOWN);
  return `${sentence} (ref: ${referenceId}).`;
}
