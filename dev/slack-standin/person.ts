import { commandAckRefusal, SlackRefusedError } from './answer-rules.js';
import {
  appMentionEvent,
  type EventCallbackOptions,
  eventCallback,
  type InteractionActorInput,
  messageEvent,
  reactionAddedEvent,
} from './event-builders.js';
import {
  type AppEndpoint,
  clickEphemeralButton,
  clickFeedbackButton,
  submitNewestForm,
  submitNewestFormFields,
} from './person-clicks.js';
import { postEvent, postSlashCommand, type SlackPostResult } from './signed-post.js';
import type { SlackStandin } from './standin.js';
import type { MessageFile, StoredMessage } from './types.js';

/**
 * A person in the stand-in's workspace, doing what people do to the bot, the way Slack delivers it:
 * the message is first recorded in the stand-in (so the bot's thread reads see it), then the
 * signed events reach the app. One driver for the end-to-end tests, the sandbox and the bench.
 */
export interface PersonDriverOptions {
  /** Who acts when a call names nobody, and where. */
  user: string;
  channel: string;
  /** The event_callback envelope for an event (a Slack Connect channel's flags, a Grid org's ids). */
  envelope?: ((event: { channel?: string }) => EventCallbackOptions) | undefined;
}

export interface Where {
  channel?: string | undefined;
  user?: string | undefined;
  threadTs?: string | undefined;
}

/** Called once the message is in the stand-in, before Slack's events for it are sent. */
export type OnRecorded = (ts: string) => void;

export interface Delivery {
  retryNum?: number | undefined;
  eventId?: string | undefined;
  envelope?: EventCallbackOptions | undefined;
}

export function createPersonDriver(slack: SlackStandin, app: AppEndpoint, defaults: PersonDriverOptions) {
  /** Delivers one event as Slack's Events API would. */
  const send = (event: object, delivery: Delivery = {}): Promise<SlackPostResult> => {
    const envelope = delivery.envelope ?? defaults.envelope?.(event as { channel?: string });
    return postEvent(
      app.appUrl,
      app.signingSecret,
      eventCallback(event as never, { ...envelope, eventId: delivery.eventId }),
      { retryNum: delivery.retryNum },
    );
  };

  return {
    send,

    /** A mention in a channel (or a thread): Slack sends `app_mention` and `message` both. */
    async mention(text: string, where: Where = {}, onRecorded?: OnRecorded) {
      const channel = where.channel ?? defaults.channel;
      const user = where.user ?? defaults.user;
      const full = `<@${slack.botUserId}> ${text}`;
      const stored = slack.recordUserMessage({ channel, user, text: full, thread_ts: where.threadTs });
      onRecorded?.(stored.ts);
      const base = { channel, user, text: full, ts: stored.ts, thread_ts: where.threadTs };
      const responses = await Promise.all([send(appMentionEvent(base)), send(messageEvent(base))]);
      return { ts: stored.ts, threadTs: where.threadTs ?? stored.ts, channel, responses };
    },

    /** A message without a mention: a reply in a thread, or a line in a DM. */
    async reply(text: string, where: Where, onRecorded?: OnRecorded) {
      const channel = where.channel ?? defaults.channel;
      const user = where.user ?? defaults.user;
      const stored = slack.recordUserMessage({ channel, user, text, thread_ts: where.threadTs });
      onRecorded?.(stored.ts);
      const response = await send(
        messageEvent({ channel, user, text, ts: stored.ts, thread_ts: where.threadTs }),
      );
      return { ts: stored.ts, threadTs: where.threadTs ?? stored.ts, channel, response };
    },

    /**
     * Files shared with a message (a `file_share` message carrying Slack's file objects, from
     * `slack.shareFile`): with `mention`, Slack sends `app_mention` and `message` both.
     */
    async share(
      text: string,
      files: MessageFile[],
      where: Where = {},
      options: { mention?: boolean; onRecorded?: OnRecorded } = {},
    ) {
      const channel = where.channel ?? defaults.channel;
      const user = where.user ?? defaults.user;
      const full = options.mention ? `<@${slack.botUserId}> ${text}` : text;
      const stored = slack.recordUserMessage({ channel, user, text: full, thread_ts: where.threadTs, files });
      options.onRecorded?.(stored.ts);
      const base = { channel, user, text: full, ts: stored.ts, thread_ts: where.threadTs };
      const message = messageEvent({ ...base, files: files as unknown as Record<string, unknown>[] });
      const mention = appMentionEvent(base);
      const events = options.mention ? [send({ ...mention, files }), send(message)] : [send(message)];
      const responses = await Promise.all(events);
      return { ts: stored.ts, threadTs: where.threadTs ?? stored.ts, channel, responses };
    },

    /** A reaction on a message. */
    react(channel: string, ts: string, reaction: string, user = defaults.user): Promise<SlackPostResult> {
      slack.addUserReaction(channel, ts, reaction, user);
      return send(reactionAddedEvent({ channel, ts, reaction, user }));
    },

    /** 👍 (`true`) or 👎 under a bot message. */
    clickFeedback(message: StoredMessage, positive: boolean, actor: InteractionActorInput = {}) {
      return clickFeedbackButton(slack, app, message, positive, { user: defaults.user, ...actor });
    },

    /** "Add a comment" in the newest thanks the person was shown in `channel`. */
    clickAddComment(
      channel: string,
      actor: InteractionActorInput & { user: string } = { user: defaults.user },
    ) {
      return clickEphemeralButton(slack, app, channel, 'answer_feedback_comment', actor);
    },

    /** Writes `text` in the newest opened form and submits it. */
    submitForm(text: string, actor: InteractionActorInput = {}) {
      return submitNewestForm(slack, app, text, actor);
    },

    /** Fills the newest opened form's inputs (block_id → text) and submits it. */
    submitFormFields(fields: Record<string, string>, actor: InteractionActorInput = {}) {
      return submitNewestFormFields(slack, app, fields, actor);
    },

    /** `/agent <text>`, with a response_url the stand-in answers. */
    async command(text: string, input: { user?: string; channel?: string; teamId?: string } = {}) {
      const responseUrl = slack.responseUrl();
      const result = await postSlashCommand(app.appUrl, app.signingSecret, {
        command: '/agent',
        text,
        user_id: input.user ?? defaults.user,
        channel_id: input.channel ?? defaults.channel,
        team_id: input.teamId ?? slack.teamId,
        response_url: responseUrl,
        // A trigger_id the stand-in issued, as Slack's: views.open accepts it once, within 3 s.
        trigger_id: slack.issueTriggerId(),
      });
      // The ack's body is a message too (an immediate response), held to chat.postMessage's rules.
      const refused = result.status === 200 ? commandAckRefusal(result.body) : undefined;
      if (refused) throw new SlackRefusedError(slack.refuse('command_ack', refused, result.body));
      return { ...result, responseId: responseUrl.split('/').pop() ?? '' };
    },
  };
}

export type PersonDriver = ReturnType<typeof createPersonDriver>;
