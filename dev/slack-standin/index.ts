/**
 * A local Slack stand-in: Web API methods the bot uses (with Slack's limits and errors), file
 * uploads, response URLs and Socket Mode, plus an inspection API that shows what a person would see.
 * Point the bot at it with `SLACK_API_URL=<standin.apiUrl>`.
 */

export type { ViewedPlaceInput } from './agent-events.js';
export {
  agentSessionStoppedEvent,
  appContext,
  appContextChangedEvent,
  dmMessageViewing,
} from './agent-events.js';
export type { AgentSessionEntry, SessionCall } from './agent-session-book.js';
export { alertMessage } from './alert-message.js';
export {
  commandAckRefusal,
  messageBodyRefusal,
  responseActionRefusal,
  SlackRefusedError,
} from './answer-rules.js';
export { channelSharedEvent, channelUnsharedEvent, membershipEvent } from './audience-events.js';
export { BLOCK_LIMITS } from './block-rules.js';
export {
  DEFAULT_APP_ID,
  DEFAULT_BOT_ID,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  defaultUsers,
  TEST_APP_TOKEN,
  TEST_BOT_TOKEN,
} from './defaults.js';
export type {
  AppMentionEventInput,
  BlockActionInput,
  BuiltMessageEvent,
  BuiltReactionEvent,
  EventCallbackOptions,
  InteractionActorInput,
  MessageEventInput,
  ReactionAddedEventInput,
  SlashCommandInput,
  ViewSubmissionInput,
} from './event-builders.js';
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
} from './event-builders.js';
export type { Outage } from './faults.js';
export { homeTabOpenedEvent } from './home-events.js';
export type { BotMessageInput, UserMessageInput, WaitForOptions } from './inspection.js';
export { StandinView } from './inspection.js';
export { SLACK_LIMITS, validateBlocks } from './limits.js';
export { mrkdwnEscapeProblem } from './mrkdwn-rules.js';
export type { StandinActor, StandinOAuthOptions, StandinWorkspace } from './oauth.js';
export { StandinOAuth } from './oauth.js';
export type { AppEndpoint } from './person-clicks.js';
export {
  clickEphemeralButton,
  clickFeedbackButton,
  submitNewestForm,
  submitNewestFormFields,
} from './person-clicks.js';
export type { DeliveryOptions, SlackPostResult } from './signed-post.js';
export { postEvent, postInteraction, postSlashCommand } from './signed-post.js';
export type { SlackSignatureHeaders } from './signing.js';
export { signSlackRequest } from './signing.js';
export type { SocketAck, SocketEnvelope } from './socket-mode.js';
export type { SlackStandinOptions, SocketModeControls } from './standin.js';
export { SlackStandin, startSlackStandin } from './standin.js';
export { compareTs, nextSlackTs } from './ts-clock.js';
export type {
  Block,
  MessageFile,
  MessageMetadata,
  Reaction,
  SlackResult,
  StandinCall,
  StandinConversation,
  StandinUser,
  StoredEphemeral,
  StoredFile,
  StoredMessage,
  StoredRefusal,
  StoredResponse,
} from './types.js';
export { VIEW_LIMITS, validateView } from './view-rules.js';
export { visibleText } from './visible-text.js';
