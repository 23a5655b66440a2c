import { identityProblem, isAgentApiError } from '../agent-api/index.js';
import { apiOf, channelAgentOf } from './command-context.js';
import { helpLine, type ServiceFailure, type Subcommand, serviceFailure } from './subcommand.js';

/** Why whoami failed, in the terms the issue asks for. */
export type WhoamiProblem = 'invalid-token' | 'wrong-address' | 'service';

export type WhoamiOutcome =
  | { kind: 'whoami'; accountId: number; accountName: string }
  | ({
      kind: 'whoami-failed';
      problem: WhoamiProblem;
      status?: number | undefined;
      serviceMessage?: string | undefined;
    } & ServiceFailure);

/**
 * The three whoami answers: 401/403 → the token is invalid; any other HTTP answer (or
 * a 200 that is not an identity, as from a wrong host) → the address or path is wrong; the
 * rest (region mismatch, network, maintenance, overload) → the usual sentence.
 */
export function whoamiProblem(error: unknown): WhoamiProblem {
  switch (identityProblem(error)) {
    case 'token-rejected':
      return 'invalid-token';
    case 'not-the-service':
      return 'wrong-address';
    default:
      return 'service';
  }
}

/** `/agent whoami`: open to everyone; asks the channel's own connection. */
export const whoamiCommand: Subcommand<{ kind: 'whoami' }, WhoamiOutcome> = {
  words: ['whoami'],
  help: [
    helpLine('whoami', '/agent whoami', "Show which agent-service account the bot's token is connected to.", {
      anyone: true,
    }),
  ],
  parse: () => ({ kind: 'whoami' }),
  async run(_command, invoker, context) {
    try {
      const channelAgent = await channelAgentOf(invoker, context);
      if (channelAgent.source === 'unbound') return { kind: 'channel-unbound' };
      const identity = await (await apiOf(channelAgent, context)).whoami();
      return { kind: 'whoami', accountId: identity.accountId, accountName: identity.accountName };
    } catch (error) {
      const failure = serviceFailure(context, error, 'whoami');
      const details = isAgentApiError(error)
        ? { status: error.status, serviceMessage: error.serviceMessage }
        : {};
      return { kind: 'whoami-failed', problem: whoamiProblem(error), ...details, ...failure };
    }
  },
};
