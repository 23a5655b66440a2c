/**
 * Tokens and who may call what. Seed, "Authentication": agent endpoints want a token of the
 * agent's account (401 otherwise), sub-account management wants the main account's token, a valid
 * token sent to another region is refused with "Account region <xx> differs from current server
 * region <yy>". The values here are obviously fake.
 */
import { errorResponse, type SimResponse } from './http-io.js';
import type { TokenKind } from './types.js';

/** Tokens the simulator knows. */
export const SIM_TOKENS = {
  /** A token of the account that owns the agents (the "Production" sub account). */
  agent: 'sim-agent-token',
  /** A token of the main account: account management, identity and export; not agent endpoints. */
  main: 'sim-main-account-token',
  /** Refused everywhere (401; 403 on /v2/whoami). */
  invalid: 'sim-invalid-token',
  /** A valid token of an account in another region: every endpoint answers 400. */
  otherRegion: 'sim-other-region-token',
} as const;

/** Account ids behind the tokens. */
export const SIM_ACCOUNT_IDS = { main: 100000, agent: 200001 } as const;

/** Name of the main account (whoami with the main token). */
export const SIM_MAIN_ACCOUNT_NAME = 'Sim Main Account';

/** Which rules an endpoint follows. */
export type EndpointKind = 'agent' | 'identity' | 'accounts' | 'export';

/**
 * Classifies the x-api-token header; undefined when it is missing. `agentToken` is the agent
 * account's token of this simulator (a second simulator stands for another account with its own).
 */
export function classifyToken(
  header: string | string[] | undefined,
  agentToken: string = SIM_TOKENS.agent,
): TokenKind | undefined {
  const token = Array.isArray(header) ? header[0] : header;
  if (token === undefined || token === '') return undefined;
  if (token === agentToken) return 'agent';
  for (const [kind, value] of Object.entries(SIM_TOKENS)) {
    if (token === value && kind !== 'agent') return kind as TokenKind;
  }
  return 'unknown';
}

/** The 400 every endpoint answers to a token of another region. */
export function regionMismatch(serverRegion: string): SimResponse {
  const accountRegion = serverRegion === 'eu-central-1' ? 'us-east-1' : 'eu-central-1';
  return errorResponse(
    400,
    'ACCOUNT_REGION_MISMATCH',
    `Account region ${accountRegion} differs from current server region ${serverRegion}`,
  );
}

/**
 * Undefined when the token may call this kind of endpoint, else the refusal. Agent endpoints take
 * a token of the agent's own account only (seed, "Authentication" rule 2): the main account's is
 * refused there like any other foreign token.
 */
export function authorize(kind: EndpointKind, token: TokenKind | undefined): SimResponse | undefined {
  if (token === 'main' && kind !== 'agent') return undefined;
  if (token === undefined) return errorResponse(401, 'UNAUTHORIZED', 'Missing x-api-token header');
  const valid = token === 'agent';
  if (kind === 'agent' && token === 'main')
    return errorResponse(401, 'UNAUTHORIZED', "The token does not belong to the agent's account");
  switch (kind) {
    case 'identity':
      // The seed fixes this body: {code, message} with code 403, not the usual error shape.
      return valid ? undefined : { status: 403, body: { code: 403, message: 'Insufficient privileges' } };
    case 'accounts':
      return valid
        ? errorResponse(
            403,
            'INSUFFICIENT_PRIVILEGES',
            'Account management requires a token of the main account',
          )
        : errorResponse(401, 'UNAUTHORIZED', 'Invalid API token');
    default:
      return valid ? undefined : errorResponse(401, 'UNAUTHORIZED', 'Invalid API token');
  }
}

/** Account id of a token that passed authorisation. */
export function accountIdOf(token: TokenKind | undefined): number {
  return token === 'main' ? SIM_ACCOUNT_IDS.main : SIM_ACCOUNT_IDS.agent;
}
