import { identityProblem, isAgentApiError } from '../agent-api/index.js';
import { channelConnection } from './command-context.js';
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

/** 401/403 → invalid token; another HTTP answer (or a 200 that is no identity) → wrong address; else service. */
export function whoamiProblem(error: unknown): WhoamiProblem {
  const problem = identityProblem(error);
  if (problem === 'token-rejected') return 'invalid-token';
  return problem === 'not-the-service' ? 'wrong-address' : 'service';
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
      const channel = await channelConnection(invoker, context);
      if (!channel) return { kind: 'channel-unbound' };
      const identity = await channel.api.whoami();
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
