import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { classifyMessage, type SlackMessageLike } from '../../../conversation/message-classifier.js';
import { toAgentPrompt } from '../../../conversation/message-text.js';
import type { TurnRequest } from '../../../conversation/turn-service.js';
import { personOfMessage } from '../../payload-person.js';
import type { ListenerDeps } from '../index.js';

type Args = SlackEventMiddlewareArgs<'app_mention' | 'message'> & AllMiddlewareArgs;

/**
 * People's messages and mentions → turns. Bolt has already acked (ack first, work after);
 * this only classifies, cleans the text and hands over to the conversation layer, which also
 * checks that the sender is inside the organisation.
 */
export function messageListener(deps: ListenerDeps, source: 'app_mention' | 'message') {
  const { identity, config, turns, logger } = deps;
  return async ({ event, context, client }: Args): Promise<void> => {
    const message = { ...(event as unknown as SlackMessageLike), type: source };
    const verdict = classifyMessage(message, {
      botUserId: identity.botUserId,
      botId: identity.botId,
      allowedChannelIds: config.access.allowedChannelIds,
    });
    if (verdict.kind === 'ignore' && !verdict.tellUser) return;
    const request: TurnRequest = {
      // The app's own workspace: in a shared channel the envelope's team_id is the channel creator's.
      teamId: identity.teamId,
      channel: message.channel,
      threadTs: verdict.kind === 'ignore' ? (message.thread_ts ?? message.ts) : verdict.threadTs,
      sourceTs: message.ts,
      ...personOfMessage(message),
      prompt: toAgentPrompt(message.text ?? '', identity.botUserId),
      hasFiles: (message.files?.length ?? 0) > 0,
      mentioned: verdict.kind === 'turn',
    };
    try {
      if (verdict.kind === 'ignore') {
        await turns.refuse(request, 'channel-not-allowed');
        return;
      }
      const result = await turns.handle(request);
      // A new DM conversation is named after its first question in the agent view's history.
      if (result === 'started' && message.channel_type === 'im' && !message.thread_ts) {
        await deps.agentView.titleConversation(client, request.channel, request.threadTs, request.prompt);
      }
      logger.debug(
        { channel: request.channel, ts: request.sourceTs, source, result, retryNum: context.retryNum },
        'message handled',
      );
    } catch (error) {
      logger.error({ err: error, channel: request.channel, ts: request.sourceTs }, 'message handling failed');
    }
  };
}
