import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../../runtime/logger.js';
import { viewedPlaceOf } from '../../app-context.js';
import type { SlackIdentity } from '../../slack-identity.js';

type Args = SlackEventMiddlewareArgs<'app_context_changed'> & AllMiddlewareArgs;

/**
 * The person moved with the agent view open. Subscribing is what makes Slack put `app_context` on
 * `message.im` (read with the question, message.ts); nothing is kept here.
 */
export function appContextChangedListener(deps: { identity: SlackIdentity; logger: Logger }) {
  return async ({ event }: Args): Promise<void> => {
    const place = viewedPlaceOf(event.context, deps.identity.teamId);
    deps.logger.debug(
      { channel: event.channel, viewing: place?.channel, thread: place?.threadTs !== undefined },
      'app context changed',
    );
  };
}
