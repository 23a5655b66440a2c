import { type RunningBridge, startBridge } from '../../src/bridge.js';
import { loadConfig } from '../../src/config.js';
import type { Logger } from '../../src/conversation/ports.js';
import { silentLogger } from '../../src/logging.js';
import {
  appMentionEvent,
  clickEphemeralButton,
  clickFeedbackButton,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  type EventCallbackOptions,
  eventCallback,
  type InteractionActorInput,
  messageEvent,
  reactionAddedEvent,
  type SlackStandin,
  type SlackStandinOptions,
  type StoredMessage,
  startSlackStandin,
  submitNewestForm,
  submitNewestFormFields,
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
  // The ADMIN_USER_IDS person is a member of the workspace: every person is looked up (is it a guest?).
  slack.addUser({ id: 'UADMINLIST' });
  const config = loadConfig(harnessEnv(sim, slack, options.env));
  let bridge: RunningBridge;
  try {
    bridge = await startBridge(config, { logger: options.logger ?? silentLogger });
  } catch (error) {
    await Promise.all([sim.close(), slack.close()]);
    throw error;
  }
  // The start-up identity check (GET /v2/whoami) is the bot's, not the test's: forget it, so tests
  // can assert that an action sent nothing to the service.
  sim.requests.length = 0;
  const appUrl = `http://127.0.0.1:${bridge.port}`;
  const endpoint = { appUrl, signingSecret: TEST_SIGNING_SECRET };

  /** Delivers an event; `envelope` sets the event_callback's fields (a shared channel's, a Grid org's). */
  const send = (
    event: object,
    delivery: { retryNum?: number; eventId?: string; envelope?: EventCallbackOptions } = {},
  ) =>
    postEvent(
      appUrl,
      TEST_SIGNING_SECRET,
      eventCallback(event as never, { ...delivery.envelope, eventId: delivery.eventId }),
      { retryNum: delivery.retryNum },
    );

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

    /** A person clicks 👍 (`true`) or 👎 under a bot message, as Slack sends it. */
    clickFeedback(message: StoredMessage, positive: boolean, actor: InteractionActorInput = {}) {
      return clickFeedbackButton(slack, endpoint, message, positive, actor);
    },

    /** The person clicks "Add a comment" in the newest thanks they were shown. */
    clickAddComment(channel: string, actor: InteractionActorInput & { user: string } = { user: 'UALICE' }) {
      return clickEphemeralButton(slack, endpoint, channel, 'answer_feedback_comment', actor);
    },

    /** The person writes `text` in the newest opened form and submits it. */
    submitForm(text: string, actor: InteractionActorInput = {}) {
      return submitNewestForm(slack, endpoint, text, actor);
    },

    /** The person fills the newest opened form's inputs (block_id → text) and submits it. */
    submitFormFields(fields: Record<string, string>, actor: InteractionActorInput = {}) {
      return submitNewestFormFields(slack, endpoint, fields, actor);
    },

    /** `/agent <text>`; `teamId` is the payload's team_id (default the stand-in's workspace). */
    command(text: string, input: { user?: string; channel?: string; teamId?: string } = {}) {
      const responseUrl = slack.responseUrl();
      const id = responseUrl.split('/').pop() ?? '';
      return postSlashCommand(appUrl, TEST_SIGNING_SECRET, {
        command: '/agent',
        text,
        user_id: input.user ?? 'UADMINLIST',
        channel_id: input.channel ?? 'C0GENERAL',
        team_id: input.teamId ?? DEFAULT_TEAM_ID,
        response_url: responseUrl,
        // A trigger_id the stand-in issued, as Slack's: views.open accepts it once, within 3 s.
        trigger_id: slack.issueTriggerId(),
      }).then((result) => ({ ...result, responseId: id }));
    },

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
