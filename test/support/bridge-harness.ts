import { localBotEnv } from '../../dev/local-stack/bot-env.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../dev/simulator/index.js';
import {
  DEFAULT_BOT_USER_ID,
  type SlackStandin,
  type SlackStandinOptions,
  type StoredMessage,
  startSlackStandin,
  visibleText,
} from '../../dev/slack-standin/index.js';
import { createPersonDriver } from '../../dev/slack-standin/person.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Clock } from '../../src/runtime/clock.js';
import type { Logger } from '../../src/runtime/logger.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';

export const TEST_SIGNING_SECRET = 'test-signing-secret-not-real';

export interface HarnessOptions {
  /** Extra or overriding environment for the bot (same variables as `npm start`). */
  env?: Record<string, string>;
  sim?: SimulatorOptions;
  slack?: SlackStandinOptions;
  logger?: Logger;
  /** The schedule ticker's clock (a manual one moves scheduled questions' time alone). */
  scheduleClock?: Clock;
}

/** The environment the bot gets in tests: everything on loopback, port 0. */
export function harnessEnv(sim: Simulator, slack: SlackStandin, extra: Record<string, string> = {}) {
  return localBotEnv(
    { simUrl: sim.url, slackApiUrl: slack.apiUrl, signingSecret: TEST_SIGNING_SECRET },
    { ADMIN_USER_IDS: 'UADMINLIST', LOG_LEVEL: 'silent', ...extra },
  );
}

/**
 * The real bot (the same startBot as `npm start`) against the simulator and the Slack
 * stand-in, reached over HTTP with signed requests. Tests assert on the stand-in's state.
 */
export async function startHarness(options: HarnessOptions = {}) {
  const sim = await startSimulator({ quiet: true, longPollMs: 500, ...options.sim });
  const slack = await startSlackStandin(options.slack);
  // The ADMIN_USER_IDS person is a member of the workspace: every person is looked up (is it a guest?).
  slack.addUser({ id: 'UADMINLIST' });
  const config = loadConfig(harnessEnv(sim, slack, options.env));
  let bridge: RunningBot;
  try {
    bridge = await startBot(config, {
      logger: options.logger ?? silentLogger,
      ...(options.scheduleClock ? { scheduleClock: options.scheduleClock } : {}),
    });
  } catch (error) {
    await Promise.all([sim.close(), slack.close()]);
    throw error;
  }
  // The start-up identity check (GET /v2/whoami) is the bot's, not the test's: forget it, so tests
  // can assert that an action sent nothing to the service.
  sim.requests.length = 0;
  const appUrl = `http://127.0.0.1:${bridge.port}`;
  const endpoint = { appUrl, signingSecret: TEST_SIGNING_SECRET };

  const person = createPersonDriver(slack, endpoint, { user: 'UALICE', channel: 'C0GENERAL' });

  return {
    sim,
    slack,
    bridge,
    config,
    appUrl,
    signingSecret: TEST_SIGNING_SECRET,
    /** Delivers an event; `envelope` sets the event_callback's fields (a shared channel's, a Grid org's). */
    send: person.send,
    /** A person mentions the bot in a channel: Slack sends `app_mention` and `message`. */
    mention: person.mention,
    /** A reply in a thread, without a mention. */
    reply: (text: string, where: { channel?: string; user?: string; threadTs: string }) =>
      person.reply(text, where),
    /** Files (from `slack.shareFile`) shared with a message; `mention` addresses the bot too. */
    share: person.share,
    react: person.react,
    clickFeedback: person.clickFeedback,
    clickAddComment: person.clickAddComment,
    submitForm: person.submitForm,
    /** The person fills the newest opened form's inputs (block_id → text) and submits it. */
    submitFormFields: person.submitFormFields,
    /** `/agent <text>` (by default from the admin of ADMIN_USER_IDS). */
    command: (text: string, input: { user?: string; channel?: string; teamId?: string } = {}) =>
      person.command(text, { ...input, user: input.user ?? 'UADMINLIST' }),

    /** The bot's messages in a thread (not the person's), in order. */
    botMessages(channel: string, threadTs: string): StoredMessage[] {
      return slack
        .messages(channel, threadTs)
        .filter((message) => message.user === DEFAULT_BOT_USER_ID || message.bot_id);
    },

    /**
     * Waits until the thread shows an answer or notice carrying metadata and the bot has finished
     * the turn (answer file uploaded, answer indexed for reactions and buttons): with the native
     * status nothing in the thread marks that last step, so the bot's in-flight gauge does.
     */
    async waitForOutcome(channel: string, threadTs: string, count = 1, timeoutMs = 10_000) {
      const started = Date.now();
      const outcomes = await outcomesIn(channel, threadTs, count, timeoutMs);
      while (
        Date.now() - started < timeoutMs &&
        !/^sab_turns_in_flight 0$/m.test(await bridge.metrics.render())
      ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return outcomes;
    },

    visibleText,

    async stop() {
      await bridge.stop();
      await Promise.all([sim.close(), slack.close()]);
    },
  };

  /** The thread's answers and notices once `count` turns have one (split answers complete). */
  function outcomesIn(channel: string, threadTs: string, count: number, timeoutMs: number) {
    return slack.waitFor(
      () => {
        const outcomes = slack.messages(channel, threadTs).filter(
          (message) =>
            ['agent_answer', 'agent_notice'].includes(message.metadata?.event_type ?? '') &&
            // "Still working past the deadline" does not end the turn.
            message.metadata?.event_payload?.final !== false,
        );
        const turns = new Set(outcomes.map((message) => message.metadata?.event_payload?.turn_id));
        // A split answer counts once all its parts are in (nothing else marks the end with native status).
        const complete = outcomes.every((message) => {
          const payload = message.metadata?.event_payload ?? {};
          if (payload.parts === undefined) return true;
          return (
            outcomes.filter((other) => other.metadata?.event_payload?.turn_id === payload.turn_id).length >=
            Number(payload.parts)
          );
        });
        // The progress message goes last, once the thread is idle again.
        const working = slack
          .messages(channel, threadTs)
          .some((message) => message.metadata?.event_type === 'agent_progress');
        return turns.size >= count && complete && !working ? outcomes : undefined;
      },
      { timeoutMs, description: `${count} turn outcome(s) in ${channel}/${threadTs}` },
    );
  }
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
