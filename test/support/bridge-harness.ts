import { type RunningBridge, startBridge } from '../../src/bridge.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/conversation/ports.js';
import { silentLogger } from '../../src/logging.js';
import {
  appMentionEvent,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  eventCallback,
  messageEvent,
  reactionAddedEvent,
  type SlackStandin,
  type SlackStandinOptions,
  type StoredMessage,
  startSlackStandin,
  TEST_BOT_TOKEN,
  visibleText,
} from '../../src/sandbox/slack-standin/index.js';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import { postEvent, postSlashCommand, type SlackPostResult } from './slack-events.js';

export const TEST_SIGNING_SECRET = 'test-signing-secret-not-real';

export interface HarnessOptions {
  /** Extra or overriding environment for the bot (same variables as `npm start`). */
  env?: Record<string, string>;
  sim?: SimulatorOptions;
  slack?: SlackStandinOptions;
  logger?: Logger;
}

/** The environment the bot gets in tests: everything on loopback, port 0. */
export function harnessEnv(sim: Simulator, slack: SlackStandin, extra: Record<string, string> = {}) {
  return {
    SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
    SLACK_SIGNING_SECRET: TEST_SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    AGENT_API_URL: sim.url,
    AGENT_API_TOKEN: SIM_TOKENS.agent,
    AGENT_ID: SIM_AGENTS.api,
    ACCOUNT_API_TOKEN: SIM_TOKENS.main,
    ADMIN_USER_IDS: 'UADMINLIST',
    LOG_LEVEL: 'silent',
    ...extra,
  } satisfies Record<string, string>;
}

/**
 * The real bot (the same startBridge as `npm start`) against the simulator and the Slack
 * stand-in, reached over HTTP with signed requests. Tests assert on the stand-in's state.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const sim = await startSimulator({ quiet: true, longPollMs: 500, ...options.sim });
  const slack = await startSlackStandin(options.slack);
  const config = loadConfig(harnessEnv(sim, slack, options.env));
  let bridge: RunningBridge;
  try {
    bridge = await startBridge(config, { logger: options.logger ?? silentLogger });
  } catch (error) {
    await Promise.all([sim.close(), slack.close()]);
    throw error;
  }
  const appUrl = `http://127.0.0.1:${bridge.port}`;

  const send = (event: object, delivery: { retryNum?: number; eventId?: string } = {}) =>
    postEvent(appUrl, TEST_SIGNING_SECRET, eventCallback(event as never, { eventId: delivery.eventId }), {
      retryNum: delivery.retryNum,
    });

  return {
    sim,
    slack,
    bridge,
    config,
    appUrl,
    signingSecret: TEST_SIGNING_SECRET,
    send,

    /** A person mentions the bot in a channel: Slack sends `app_mention` and `message`. */
    async mention(text: string, where: { channel?: string; user?: string; threadTs?: string } = {}) {
      const channel = where.channel ?? 'C0GENERAL';
      const user = where.user ?? 'UALICE';
      const full = `<@${DEFAULT_BOT_USER_ID}> ${text}`;
      const stored = slack.recordUserMessage({ channel, user, text: full, thread_ts: where.threadTs });
      const base = { channel, user, text: full, ts: stored.ts, thread_ts: where.threadTs };
      const responses = await Promise.all([send(appMentionEvent(base)), send(messageEvent(base))]);
      return { ts: stored.ts, threadTs: where.threadTs ?? stored.ts, channel, responses };
    },

    /** A reply in a thread, without a mention. */
    async reply(text: string, where: { channel?: string; user?: string; threadTs: string }) {
      const channel = where.channel ?? 'C0GENERAL';
      const user = where.user ?? 'UALICE';
      const stored = slack.recordUserMessage({ channel, user, text, thread_ts: where.threadTs });
      const response = await send(
        messageEvent({ channel, user, text, ts: stored.ts, thread_ts: where.threadTs }),
      );
      return { ts: stored.ts, threadTs: where.threadTs, channel, response };
    },

    /** A person reacts to a message. */
    async react(channel: string, ts: string, reaction: string, user = 'UALICE'): Promise<SlackPostResult> {
      slack.addUserReaction(channel, ts, reaction, user);
      return send(reactionAddedEvent({ channel, ts, reaction, user }));
    },

    command(text: string, input: { user?: string; channel?: string } = {}) {
      const responseUrl = slack.responseUrl();
      const id = responseUrl.split('/').pop() ?? '';
      return postSlashCommand(appUrl, TEST_SIGNING_SECRET, {
        command: '/agent',
        text,
        user_id: input.user ?? 'UADMINLIST',
        channel_id: input.channel ?? 'C0GENERAL',
        team_id: DEFAULT_TEAM_ID,
        response_url: responseUrl,
      }).then((result) => ({ ...result, responseId: id }));
    },

    /** The bot's messages in a thread (not the person's), in order. */
    botMessages(channel: string, threadTs: string): StoredMessage[] {
      return slack
        .messages(channel, threadTs)
        .filter((message) => message.user === DEFAULT_BOT_USER_ID || message.bot_id);
    },

    /** Waits until the thread shows an answer or notice carrying metadata, i.e. the turn ended. */
    waitForOutcome(channel: string, threadTs: string, count = 1, timeoutMs = 10_000) {
      return slack.waitFor(
        () => {
          const outcomes = slack.messages(channel, threadTs).filter(
            (message) =>
              ['agent_answer', 'agent_notice'].includes(message.metadata?.event_type ?? '') &&
              // "Still working past the deadline" does not end the turn.
              message.metadata?.event_payload?.final !== false,
          );
          const turns = new Set(outcomes.map((message) => message.metadata?.event_payload?.turn_id));
          // The progress message goes last, once the thread is idle again.
          const working = slack
            .messages(channel, threadTs)
            .some((message) => message.metadata?.event_type === 'agent_progress');
          return turns.size >= count && !working ? outcomes : undefined;
        },
        { timeoutMs, description: `${count} turn outcome(s) in ${channel}/${threadTs}` },
      );
    },

    visibleText,

    async stop() {
      await bridge.stop();
      await Promise.all([sim.close(), slack.close()]);
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
