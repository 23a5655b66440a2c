import { nextSlackTs } from '../../dev/slack-standin/index.js';

/**
 * What Slack sends an app over HTTP, for end-to-end tests: signed events (with retries), slash
 * commands and interactions. The event builders, the signer and the signed POSTs live beside the
 * Slack stand-in (the local sandbox uses them too) and are re-exported here. Defaults match the
 * stand-in's workspace.
 */

/** The next realistic message ts; shares the stand-in's clock, so it never collides with a bot message. */
export const nextTs: () => string = nextSlackTs;

export type {
  AppMentionEventInput,
  BuiltMessageEvent,
  BuiltReactionEvent,
  EventCallbackOptions,
  MessageEventInput,
  ReactionAddedEventInput,
  SlashCommandInput,
} from '../../dev/slack-standin/event-builders.js';
export {
  appHomeOpenedEvent,
  appMentionEvent,
  blockActionsPayload,
  channelTypeOf,
  eventCallback,
  messageEvent,
  reactionAddedEvent,
  slashCommandFields,
  viewSubmissionPayload,
} from '../../dev/slack-standin/event-builders.js';
export { homeTabOpenedEvent } from '../../dev/slack-standin/home-events.js';
export type { DeliveryOptions, SlackPostResult } from '../../dev/slack-standin/signed-post.js';
export { postEvent, postInteraction, postSlashCommand } from '../../dev/slack-standin/signed-post.js';
export type { SlackSignatureHeaders } from '../../dev/slack-standin/signing.js';
export { signSlackRequest } from '../../dev/slack-standin/signing.js';
