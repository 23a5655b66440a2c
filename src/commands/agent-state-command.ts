import { channelConnection } from './command-context.js';
import { expectCount } from './command-words.js';
import { helpLine, type Subcommand } from './subcommand.js';

type AgentStateCommand = { kind: 'enable' | 'disable'; agentId?: string };

/** `active` is what the service returned, which may differ from what was asked. */
export type AgentStateOutcome = { kind: 'agent-state'; agentId: string; requested: boolean; active: boolean };

const DEFAULT_AGENT = "default: this channel's agent, else the bot's agent, AGENT_ID";

/** `/agent enable|disable [agent-id]`: on the channel's connection, where its agent lives. */
export const agentStateCommand: Subcommand<AgentStateCommand, AgentStateOutcome> = {
  words: ['enable', 'disable'],
  help: [
    helpLine('enable', '/agent enable [agent-id]', `Turn an agent on (${DEFAULT_AGENT}).`, {
      example: '/agent enable',
    }),
    helpLine(
      'disable',
      '/agent disable [agent-id]',
      `Turn an agent off, so it starts no new runs (${DEFAULT_AGENT}).`,
      { example: '/agent disable my-agent-id' },
    ),
  ],
  parse(args, word) {
    const kind = word as AgentStateCommand['kind'];
    expectCount(kind, args, 0, 1);
    return args[0] ? { kind, agentId: args[0] } : { kind };
  },
  async run(command, invoker, context) {
    const channel = await channelConnection(invoker, context);
    if (!channel) return { kind: 'channel-unbound' };
    const agentId = command.agentId ?? channel.agentId;
    const requested = command.kind === 'enable';
    const state = await (requested ? channel.api.enableAgent(agentId) : channel.api.disableAgent(agentId));
    return { kind: 'agent-state', agentId: state.id || agentId, requested, active: state.active };
  },
  auditFields: (outcome) => ({ active: outcome.active }),
  changesAdminHome: () => true,
};
