/**
 * What a turn is given besides the question (DESIGN "Thread context", "Time range", "Files are
 * context", "Channel agents"): the thread read through its own fail-fast Web client, the people
 * directory, and shared text files read with the bot token from Slack's file host only.
 */
import type { ChannelAgents } from '../conversation/context/channel-agents.js';
import { createFileGathering } from '../conversation/context/file-gathering.js';
import { createTurnContext } from '../conversation/context/turn-context.js';
import { createSlackFileReader } from '../slack/file-download.js';
import { createSlackPeopleDirectory } from '../slack/people-directory.js';
import { createSlackThreadReader } from '../slack/thread-reader.js';
import type { BotContext } from './bot-context.js';

export function wireTurnContext(
  ctx: BotContext,
  deps: {
    users: Parameters<typeof createSlackPeopleDirectory>[0];
    inside: Parameters<typeof createTurnContext>[0]['inside'];
    channelAgents: ChannelAgents;
  },
) {
  const { config, slack, identity, clock, logger } = ctx;
  const people = createSlackPeopleDirectory(deps.users);
  const context = createTurnContext({
    threads: createSlackThreadReader(slack.failFastWebClient()),
    people,
    inside: deps.inside,
    channelAgents: deps.channelAgents,
    files: createFileGathering({
      reader: createSlackFileReader({ apiUrl: config.slack.apiUrl, token: slack.botToken, logger }),
      logger,
      settings: { maxChars: config.context.fileMaxChars },
    }),
    clock,
    logger,
    settings: {
      ...config.context,
      // Read per turn: with OAuth the bot is the installation's under way.
      get botUserId() {
        return identity.botUserId;
      },
      get botId() {
        return identity.botId;
      },
    },
  });
  return { context, people };
}
