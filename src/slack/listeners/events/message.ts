import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { sharedFilesOf } from '../../../conversation/context/file-context.js';
import { toAgentPrompt } from '../../../conversation/context/message-text.js';
import type { Tenant } from '../../../conversation/tenancy.js';
import { classifyMessage, type SlackMessageLike } from '../../../conversation/turn/message-classifier.js';
import type { TurnIntake } from '../../../conversation/turn/turn-intake.js';
import type { TurnRequest } from '../../../conversation/turn/turn-request.js';
import type { Logger } from '../../../runtime/logger.js';
import type { AgentView } from '../../agent-view.js';
import { type SlackAppContext, viewedPlaceOf } from '../../app-context.js';
import { tenantOf } from '../../event-tenant.js';
import { personOfMessage } from '../../payload-person.js';
import type { SlackIdentity } from '../../slack-identity.js';

type Args = SlackEventMiddlewareArgs<'app_mention' | 'message'> & AllMiddlewareArgs;

/** People's messages and mentions → turns (the conversation layer checks that the sender is inside). */
export interface MessagePorts {
  turns: Pick<TurnIntake, 'handle' | 'refuse'>;
  agentView: Pick<AgentView, 'titleConversation'>;
  identity: SlackIdentity;
  /** ALLOWED_CHANNEL_IDS; empty: every channel. */
  allowedChannelIds: readonly string[];
  logger: Logger;
}

/** The turn request's fields both message listeners fill alike (the prompt: the message's text). */
export function requestOf(
  message: SlackMessageLike,
  tenant: Tenant,
  identity: SlackIdentity,
  prompt = toAgentPrompt(message.text ?? '', identity.botUserId),
) {
  return {
    tenant,
    // The app's own workspace: in a shared channel the envelope's team_id is the channel creator's.
    teamId: identity.teamId,
    channel: message.channel,
    sourceTs: message.ts,
    ...personOfMessage(message),
    prompt,
    files: sharedFilesOf(message),
  };
}

export function messageListener(deps: MessagePorts, source: 'app_mention' | 'message') {
  const { identity, allowedChannelIds, turns, logger } = deps;
  return async ({ event, context, client }: Args): Promise<void> => {
    const message = { ...(event as unknown as SlackMessageLike), type: source };
    const verdict = classifyMessage(message, { ...identity, allowedChannelIds });
    if (verdict.kind === 'ignore' && !verdict.tellUser) return;
    const request: TurnRequest = {
      ...requestOf(message, tenantOf(context), identity),
      threadTs: verdict.kind === 'ignore' ? (message.thread_ts ?? message.ts) : verdict.threadTs,
      mentioned: verdict.kind === 'turn',
      // A question in the agent's DM says where the person was looking (viewed-context.ts).
      viewing:
        message.channel_type === 'im'
          ? viewedPlaceOf((event as { app_context?: SlackAppContext }).app_context, identity.teamId)
          : undefined,
    };
    // Not awaited: Bolt then drops the request and its envelope (~16 KB a message) while the turn
    // waits for the I/O gate. Arrival order is kept: handing over is synchronous, the gate FIFO.
    const handling =
      verdict.kind === 'ignore' ? turns.refuse(request, 'channel-not-allowed') : turns.handle(request);
    const startsDm = message.channel_type === 'im' && !message.thread_ts;
    const retryNum = context.retryNum;
    const logged = { channel: request.channel, ts: request.sourceTs };
    void handling
      .then(async (result) => {
        // A new DM conversation is named after its first question in the agent view's history.
        if (result === 'started' && startsDm) {
          await deps.agentView.titleConversation(client, request.channel, request.threadTs, request.prompt);
        }
        logger.debug({ ...logged, source, result, retryNum }, 'message handled');
      })
      .catch((error: unknown) => logger.error({ err: error, ...logged }, 'message handling failed'));
  };
}
