/** `/agent` replies as Slack messages (the layer rules keep Slack out of commands/). */
import { type CommandOutcome, isSlow, type ParseResult } from '../../../commands/registry.js';
import { type CommandReply, type Replies, reply } from '../mrkdwn-reply.js';
import { accountsReplies } from './accounts-replies.js';
import { agentStateReplies } from './agent-state-replies.js';
import { alertsWebhookReplies } from './alerts-webhook-replies.js';
import { capacityReplies } from './capacity-replies.js';
import { channelReplies } from './channel-replies.js';
import { commonReplies } from './common-replies.js';
import { connectionsReplies } from './connections-replies.js';
import { exportReplies } from './export-replies.js';
import { scheduleReplies } from './schedule-replies.js';
import { whoamiReplies } from './whoami-replies.js';

export { type CommandReply, escapeMrkdwn } from '../mrkdwn-reply.js';
export { renderHelp } from './common-replies.js';

/** Typed so that an outcome kind without a renderer does not compile. */
const RENDERERS: Replies<CommandOutcome> = {
  ...commonReplies,
  ...whoamiReplies,
  ...agentStateReplies,
  ...accountsReplies,
  ...capacityReplies,
  ...exportReplies,
  ...channelReplies,
  ...connectionsReplies,
  ...alertsWebhookReplies,
  ...scheduleReplies,
};

export function renderCommandOutcome(outcome: CommandOutcome): CommandReply {
  const rendered = (RENDERERS[outcome.kind] as (outcome: CommandOutcome) => CommandReply | string)(outcome);
  return typeof rendered === 'string' ? reply(rendered) : rendered;
}

/** What the HTTP ack shows at once for commands that take a while; undefined → an empty ack. */
export const renderAcknowledgement = (parsed: ParseResult): string | undefined =>
  isSlow(parsed) ? 'Working on it…' : undefined;
