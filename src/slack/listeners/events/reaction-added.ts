import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import type { Logger } from '../../../runtime/logger.js';
import { personOfReaction } from '../../payload-person.js';
import type { SlackIdentity } from '../../slack-identity.js';

type Args = SlackEventMiddlewareArgs<'reaction_added'> & AllMiddlewareArgs;

/** 👍/👎 on an answer → feedback on its session (conversation/feedback/ratings.ts checks the person). */
export function reactionAddedListener(deps: { reactions: Ratings; identity: SlackIdentity; logger: Logger }) {
  return async ({ event }: Args): Promise<void> => {
    if (event.item.type !== 'message') return;
    const result = await deps.reactions.onReaction({
      channel: event.item.channel,
      ts: event.item.ts,
      reaction: event.reaction,
      onBotMessage: event.item_user === deps.identity.botUserId,
      ...personOfReaction(event),
    });
    deps.logger.debug(
      { channel: event.item.channel, ts: event.item.ts, reaction: event.reaction, result },
      'reaction handled',
    );
  };
}
