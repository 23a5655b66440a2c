import type { Logger } from '../runtime/logger.js';
import { AgentApiErrorCode, isAgentApiError, RegionMismatchError } from './errors.js';
import { type Identity, identityProblem } from './identity.js';
import type { AgentApi } from './service-http.js';

/** Raised when the agent service side of the configuration is wrong; main.ts exits 1 with its message. */
export class AgentServiceStartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentServiceStartupError';
  }
}

/** What the service answered, for a message: status and its own words. */
function answered(error: unknown): string {
  if (!isAgentApiError(error)) return error instanceof Error ? error.message : String(error);
  // A spec-valid answer naming no account: its own words say what came back.
  if (error.code === AgentApiErrorCode.EmptyAnswer) return error.message;
  const status = error.status === undefined ? error.code : `HTTP ${error.status}`;
  const words = error.serviceMessage ? `: “${error.serviceMessage}”` : '';
  return `GET /v2/whoami answered ${status}${words}`;
}

/**
 * Checks AGENT_API_URL and AGENT_API_TOKEN with `/v2/whoami` (DESIGN, "Start-up checks both sides"):
 * a wrong token, region or address throws naming the variable to fix; a service down only warns.
 */
export async function checkAgentService(
  api: Pick<AgentApi, 'whoami'>,
  settings: { baseUrl: string; timeoutMs: number },
  logger: Logger,
): Promise<Identity | undefined> {
  const { baseUrl } = settings;
  try {
    const identity = await api.whoami({ timeoutMs: settings.timeoutMs, retryLimit: 0 });
    logger.info(
      { accountId: identity.accountId, accountName: identity.accountName },
      'agent service identity checked',
    );
    return identity;
  } catch (error) {
    switch (identityProblem(error)) {
      case 'token-rejected':
        throw new AgentServiceStartupError(
          `the agent service at ${baseUrl} rejected AGENT_API_TOKEN (${answered(error)}): set AGENT_API_TOKEN to an API token of the account that owns the agents`,
          { cause: error },
        );
      case 'region-mismatch': {
        const regions =
          error instanceof RegionMismatchError
            ? `belongs to an account in region ${error.accountRegion}, but AGENT_API_URL (${baseUrl}) is the API address of region ${error.serverRegion}`
            : `belongs to another region than AGENT_API_URL (${baseUrl})`;
        throw new AgentServiceStartupError(
          `AGENT_API_TOKEN ${regions}: set AGENT_API_URL to the account's regional API address`,
          { cause: error },
        );
      }
      case 'not-the-service':
        throw new AgentServiceStartupError(
          `AGENT_API_URL (${baseUrl}) does not answer like the agent service (${answered(error)}): set AGENT_API_URL to the account's regional API address, e.g. https://api.logz.io or https://api-eu.logz.io`,
          { cause: error },
        );
      default:
        logger.warn(
          { err: error, agentApiUrl: baseUrl, reason: answered(error) },
          'agent service could not be checked at start-up (down, in maintenance or unreachable); starting anyway',
        );
        return undefined;
    }
  }
}
