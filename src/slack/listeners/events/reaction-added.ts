import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { personOfReaction } from '../../payload-person.js';
import type { ListenerDeps } from '../listener-deps.js';

type Args = SlackEventMiddlewareArgs<'reaction_added'> & AllMiddlewareArgs;

/**
 * 👍/👎 on an answer → feedback on its session (see conversation/feedback/ratings.ts, which also
 * checks that the person is inside the organisation).
 */
export function reactionAddedListener(deps: ListenerDeps) {
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
