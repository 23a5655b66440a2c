import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import {
  type AnswerChannels,
  isAnswerAllCandidate,
} from '../../../conversation/answer-channels/answer-channels.js';
import { toAgentPrompt } from '../../../conversation/context/message-text.js';
import { classifyMessage, type SlackMessageLike } from '../../../conversation/turn/message-classifier.js';
import type { TurnIntake } from '../../../conversation/turn/turn-intake.js';
import type { TurnRequest } from '../../../conversation/turn/turn-request.js';
import { tenantOf } from '../../event-tenant.js';
import { type MessagePorts, requestOf } from './message.js';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/**
 * People's top-level messages in answer channels (DESIGN "Answer channels") → turns in their threads,
 * no mention needed; an outsider is only logged by the turn starter: they did not address the bot.
 */
export interface AnswerChannelPorts extends Pick<MessagePorts, 'identity' | 'allowedChannelIds' | 'logger'> {
  turns: Pick<TurnIntake, 'handle'>;
  answerChannels?: Pick<AnswerChannels, 'settingOf'> | undefined;
}

export function answerChannelListener(deps: AnswerChannelPorts) {
  const { identity, allowedChannelIds, turns, logger, answerChannels } = deps;
  return async ({ event, context }: Args): Promise<void> => {
    if (!answerChannels) return;
    const message = { ...(event as unknown as SlackMessageLike), type: 'message' as const };
    const verdict = classifyMessage(message, { ...identity, allowedChannelIds });
    if (!isAnswerAllCandidate(verdict, message.channel, allowedChannelIds)) return;
    const prompt = toAgentPrompt(message.text ?? '', identity.botUserId);
    // A post without words (a screenshot, a file dropped in) asks nothing: not worth a refusal here.
    if (prompt.trim() === '') return;
    const tenant = tenantOf(context);
    try {
      if (!(await answerChannels.settingOf(tenant, message.channel))) return;
    } catch (error) {
      logger.error({ err: error, channel: message.channel, ts: message.ts }, 'answer channel unreadable');
      return;
    }
    const request: TurnRequest = {
      ...requestOf(message, tenant, identity, prompt),
      threadTs: message.ts,
      mentioned: false,
      answerAll: true,
    };
    const logged = { channel: request.channel, ts: request.sourceTs };
    void turns
      .handle(request)
      .then((result) => logger.debug({ ...logged, result }, 'answer channel message handled'))
      .catch((error: unknown) => logger.error({ err: error, ...logged }, 'message handling failed'));
  };
}
