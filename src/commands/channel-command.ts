import type { WatchedChannels } from '../alerts/index.js';
import type { AnswerChannels } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelAgents } from '../conversation/context/channel-agents.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { CommandOutcome } from './command-outcome.js';
import { usageOf } from './help-text.js';
import type { AgentCommand } from './parse-command.js';

type ChannelCommand = Extract<
  AgentCommand,
  { kind: 'channel' | 'channel-use' | 'channel-reset' | 'channel-investigate' | 'channel-answer-all' }
>;

/**
 * `/agent channel …` (DESIGN "Channel agents"): shows or changes the agent new threads in the
 * channel where the command was typed use. Access is checked by the caller (use and reset are
 * admin commands, audited there; so is the existence of the connection a binding names). Nothing
 * is called on the service: it cannot read an agent.
 */
export async function runChannelCommand(
  command: ChannelCommand,
  invoker: { tenant: Tenant; channelId?: string | undefined; userId: string },
  channelAgents: Pick<ChannelAgents, 'agentFor' | 'use' | 'reset' | 'defaultAgentId'>,
  watched?: Pick<WatchedChannels, 'watchOf' | 'set'>,
  answering?: Pick<AnswerChannels, 'settingOf' | 'set'>,
): Promise<CommandOutcome> {
  const { tenant, channelId, userId } = invoker;
  if (!channelId) return { kind: 'channel-missing', usage: usageOf(command.kind) };
  switch (command.kind) {
    case 'channel': {
      const current = await channelAgents.agentFor(tenant, channelId);
      return {
        kind: 'channel-agent',
        channelId,
        agentId: current.agentId,
        source: current.source,
        boundBy: current.binding?.boundBy,
        watched: watched ? (await watched.watchOf(tenant, channelId)) !== undefined : undefined,
        answerAll: answering ? (await answering.settingOf(tenant, channelId)) !== undefined : undefined,
        connection: current.connection,
      };
    }
    case 'channel-investigate': {
      if (!watched) return { kind: 'not-configured', usage: usageOf(command.kind) };
      const { wasOn } = await watched.set(tenant, channelId, command.on, userId);
      return { kind: 'channel-watch', channelId, on: command.on, wasOn };
    }
    case 'channel-answer-all': {
      if (!answering) return { kind: 'not-configured', usage: usageOf(command.kind) };
      const { wasOn } = await answering.set(tenant, channelId, command.on, userId);
      return { kind: 'channel-answer-all', channelId, on: command.on, wasOn };
    }
    case 'channel-use': {
      const before = await channelAgents.use(tenant, channelId, command.agentId, userId, command.connection);
      return {
        kind: 'channel-bound',
        channelId,
        agentId: command.agentId,
        previousAgentId: before.agentId,
        ...(command.connection !== undefined ? { connection: command.connection } : {}),
      };
    }
    case 'channel-reset': {
      const before = await channelAgents.reset(tenant, channelId);
      return {
        kind: 'channel-reset',
        channelId,
        // Outside the home installations the default agent is not theirs: none until bound again.
        agentId: tenant.home ? channelAgents.defaultAgentId : undefined,
        previousAgentId: before.agentId,
      };
    }
  }
}
