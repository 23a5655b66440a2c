import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { classifyMessage, type SlackMessageLike } from '../../../conversation/message-classifier.js';
import { toAgentPrompt } from '../../../conversation/message-text.js';
import type { ListenerDeps } from '../index.js';

type Args = SlackEventMiddlewareArgs<'app_mention' | 'message'> & AllMiddlewareArgs;

/**
 * People's messages and mentions → turns. Bolt has already acked (ack first, work after);
 * this only classifies, cleans the text and hands over to the conversation layer.
 */
export function messageListener(deps: ListenerDeps, source: 'app_mention' | 'message') {
  const { identity, config, turns, logger } = deps;
  return async ({ event, body, context }: Args): Promise<void> => {
    const message = { ...(event as unknown as SlackMessageLike), type: source };
    const teamId = (body as { team_id?: string }).team_id ?? identity.teamId;
    const verdict = classifyMessage(message, {
      botUserId: identity.botUserId,
      botId: identity.botId,
      teamId,
      allowedChannelIds: config.access.allowedChannelIds,
      allowExternalUsers: config.access.allowExternalUsers,
    });
    if (verdict.kind === 'ignore' && !verdict.tellUser) return;
    const request = {
      teamId,
      channel: message.channel,
      threadTs: verdict.kind === 'ignore' ? (message.thread_ts ?? message.ts) : verdict.threadTs,
      sourceTs: message.ts,
      userId: message.user ?? '',
      prompt: toAgentPrompt(message.text ?? '', identity.botUserId),
      mentioned: verdict.kind === 'turn',
    };
    try {
      if (verdict.kind === 'refuse-external' || verdict.kind === 'ignore') {
        await turns.refuse(request, verdict.kind === 'ignore' ? 'channel-not-allowed' : 'external-user');
        return;
      }
      const result = await turns.handle(request);
      logger.debug(
        { channel: request.channel, ts: request.sourceTs, source, result, retryNum: context.retryNum },
        'message handled',
      );
    } catch (error) {
      logger.error({ err: error, channel: request.channel, ts: request.sourceTs }, 'message handling failed');
    }
  };
}
