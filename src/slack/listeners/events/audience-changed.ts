import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { ConversationAudience } from '../../../conversation/access/audience.js';
import type { Logger } from '../../../runtime/logger.js';

type AudienceEvent = 'channel_shared' | 'channel_unshared' | 'member_joined_channel' | 'member_left_channel';
type Args = SlackEventMiddlewareArgs<AudienceEvent> & AllMiddlewareArgs;

/** A conversation was shared, unshared, joined or left: who reads it is dropped from the store. */
export function audienceChangedListener(deps: {
  audience: Pick<ConversationAudience, 'forget'>;
  logger: Logger;
}) {
  return async ({ event }: Args): Promise<void> => {
    try {
      await deps.audience.forget(event.channel);
      deps.logger.debug({ channel: event.channel, event: event.type }, 'audience dropped');
    } catch (error) {
      // The verdict then expires on its own (minutes); the next question may use the old one.
      deps.logger.warn(
        { err: error, channel: event.channel, event: event.type },
        'could not drop the audience',
      );
    }
  };
}
