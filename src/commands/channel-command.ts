import { aliasProblem } from '../connections/connection-alias.js';
import { isAgentId } from '../conversation/context/channel-agents.js';
import { expectCount, parseOnOff } from './command-words.js';
import { helpLine, type Subcommand, UsageError, usageIn } from './subcommand.js';

type ChannelCommand =
  | { kind: 'channel' }
  /** `connection`: the alias after `on`; undefined: the default connection. */
  | { kind: 'channel-use'; agentId: string; connection?: string }
  | { kind: 'channel-reset' }
  | { kind: 'channel-investigate' | 'channel-answer-all'; on: boolean };

export type ChannelOutcome =
  | {
      kind: 'channel-agent';
      channelId: string;
      /** Undefined when `source` is `unbound`: no agent serves the channel here. */
      agentId?: string | undefined;
      source: 'channel' | 'default' | 'unbound';
      boundBy?: string | undefined;
      /** Whether integration posts here are investigated; undefined: not configured. */
      watched?: boolean | undefined;
      /** Whether every top-level message here is answered; undefined: not configured. */
      answerAll?: boolean | undefined;
      connection?: string | undefined;
    }
  | { kind: 'channel-watch' | 'channel-answer-all'; channelId: string; on: boolean; wasOn: boolean }
  | {
      kind: 'channel-bound' | 'channel-reset';
      channelId: string;
      /** Undefined after a reset outside the home installations: the channel has no agent now. */
      agentId?: string | undefined;
      /** Undefined: the channel had none. */
      previousAgentId?: string | undefined;
      /** `channel-bound … on <alias>`: the connection the agent is on. */
      connection?: string | undefined;
    }
  /** `use … on <alias>` named a connection alias that does not exist; nothing changed. */
  | { kind: 'connection-unknown'; alias: string };

const HELP = [
  helpLine(
    'channel',
    '/agent channel',
    "Show which agent new threads in this channel use (the channel's own, or AGENT_ID).",
    { anyone: true },
  ),
  helpLine(
    'channel-use',
    '/agent channel use <agent-id> [on <alias>]',
    'Make new threads in this channel use that agent (on the service connection `alias`, else the default one); threads already started keep their agent and connection.',
    { example: '/agent channel use payments-agent on eu-prod' },
  ),
  helpLine(
    'channel-reset',
    '/agent channel reset',
    'Make new threads in this channel use the bot’s agent (AGENT_ID) again.',
  ),
  helpLine(
    'channel-investigate',
    '/agent channel investigate <on|off>',
    'Investigate every new alert other bots and integrations post in this channel (recoveries aside), in its thread.',
    { example: '/agent channel investigate on' },
  ),
  helpLine(
    'channel-answer-all',
    '/agent channel answer-all <on|off>',
    'Answer every new top-level message people inside post in this channel, in its thread, without a mention (replies stay follow-ups).',
    { example: '/agent channel answer-all on' },
  ),
];

function parseUse(args: string[]): ChannelCommand {
  const [agentId = '', onWord, alias, ...extra] = args;
  const refuse = (problem: string) => new UsageError('channel-use', problem);
  if (agentId === '') throw refuse('something is missing');
  if (!isAgentId(agentId)) throw refuse(`“${agentId}” is not an agent id`);
  if (onWord === undefined) return { kind: 'channel-use', agentId };
  if (onWord.toLowerCase() !== 'on') throw refuse(`unexpected “${onWord}”`);
  if (alias === undefined) throw refuse('the connection alias after `on` is missing');
  const wrong = aliasProblem(alias);
  if (wrong) throw refuse(wrong);
  if (extra.length > 0) throw refuse(`unexpected “${extra[0]}”`);
  return { kind: 'channel-use', agentId, connection: alias };
}

/** `/agent channel …` (DESIGN "Channel agents"): no service call, as the service cannot read an agent. */
export const channelCommand: Subcommand<ChannelCommand, ChannelOutcome> = {
  words: ['channel'],
  help: HELP,
  parse([verb, ...rest]) {
    switch (verb?.toLowerCase()) {
      case undefined:
        return { kind: 'channel' };
      case 'use':
        return parseUse(rest);
      case 'reset':
        expectCount('channel-reset', rest, 0, 0);
        return { kind: 'channel-reset' };
      case 'investigate':
        return { kind: 'channel-investigate', on: parseOnOff('channel-investigate', rest) };
      case 'answer-all':
        return { kind: 'channel-answer-all', on: parseOnOff('channel-answer-all', rest) };
      default:
        throw new UsageError(
          'channel',
          `unknown channel command “${verb}” (use \`use <agent-id>\`, \`reset\`, \`investigate on|off\` or \`answer-all on|off\`)`,
        );
    }
  },
  async run(command, { channelId, userId }, context) {
    const { tenant, channelAgents, watchedChannels: watched, answerChannels: answering } = context;
    const usage = usageIn(HELP, command.kind);
    if (command.kind === 'channel-use') {
      const { connection } = command;
      // The default connection is the operator's: another installation binds to its own.
      if (connection === undefined && !tenant.home) return { kind: 'home-only', usage };
      if (connection !== undefined && !(await context.connections?.exists(connection, tenant)))
        return { kind: 'connection-unknown', alias: connection };
    }
    if (!channelId) return { kind: 'channel-missing', usage };
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
        if (!watched) return { kind: 'not-configured', usage };
        const { wasOn } = await watched.set(tenant, channelId, command.on, userId);
        return { kind: 'channel-watch', channelId, on: command.on, wasOn };
      }
      case 'channel-answer-all': {
        if (!answering) return { kind: 'not-configured', usage };
        const { wasOn } = await answering.set(tenant, channelId, command.on, userId);
        return { kind: 'channel-answer-all', channelId, on: command.on, wasOn };
      }
      case 'channel-use': {
        const { agentId, connection } = command;
        const before = await channelAgents.use(tenant, channelId, agentId, userId, connection);
        return {
          kind: 'channel-bound',
          channelId,
          agentId,
          previousAgentId: before.agentId,
          ...(connection !== undefined ? { connection } : {}),
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
  },
  auditFields(outcome) {
    if (outcome.kind === 'channel-watch' || outcome.kind === 'channel-answer-all')
      return { on: outcome.on, wasOn: outcome.wasOn };
    if (outcome.kind !== 'channel-bound' && outcome.kind !== 'channel-reset') return {};
    const { agentId, previousAgentId, connection } = outcome;
    return { agentId, previousAgentId, ...(connection !== undefined ? { connection } : {}) };
  },
  result: (outcome) => (outcome.kind === 'connection-unknown' ? 'refused' : 'ok'),
  changesAdminHome(outcome) {
    if (outcome.kind === 'channel-bound' || outcome.kind === 'channel-reset') return true;
    return (
      (outcome.kind === 'channel-watch' || outcome.kind === 'channel-answer-all') &&
      outcome.on !== outcome.wasOn
    );
  },
};
