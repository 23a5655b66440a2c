import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../../runtime/logger.js';
import { decodeRatedAnswer, renderCommentForm } from '../../views/feedback.js';

type Args = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** "Add a comment" → the comment form, at once: views.open needs the trigger_id within 3 seconds. */
export function addCommentListener(deps: { logger: Logger }) {
  return async ({ ack, action, body, client }: Args): Promise<void> => {
    await ack();
    const answer = decodeRatedAnswer(action.value);
    if (!answer) {
      deps.logger.warn({ value: action.value }, 'comment button without an answer');
      return;
    }
    await client.views
      .open({ trigger_id: body.trigger_id, view: renderCommentForm(answer) })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'comment form not opened'));
  };
}
