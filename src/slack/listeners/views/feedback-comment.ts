import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import type { Logger } from '../../../runtime/logger.js';
import { personOfInteraction } from '../../payload-person.js';
import {
  COMMENT_BLOCK_ID,
  COMMENT_INPUT_ACTION_ID,
  decodeRatedAnswer,
  FEEDBACK_PROBLEMS,
  renderCommentThanks,
} from '../../views/feedback.js';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The comment form submitted → the comment, with the session's current rating, to the service. */
export function feedbackCommentListener(deps: { reactions: Ratings; logger: Logger }) {
  return async ({ ack, body, view, client }: Args): Promise<void> => {
    const comment = view.state.values[COMMENT_BLOCK_ID]?.[COMMENT_INPUT_ACTION_ID]?.value?.trim() ?? '';
    if (comment === '') {
      await ack({ response_action: 'errors', errors: { [COMMENT_BLOCK_ID]: 'Write a comment, or cancel.' } });
      return;
    }
    await ack();
    const answer = decodeRatedAnswer(view.private_metadata);
    if (!answer) {
      deps.logger.warn({ callbackId: view.callback_id }, 'comment form without an answer');
      return;
    }
    const person = personOfInteraction(body);
    const result = await deps.reactions.onComment({
      channel: answer.channel,
      ts: answer.ts,
      comment,
      person,
    });
    deps.logger.debug({ channel: answer.channel, ts: answer.ts, result }, 'feedback comment handled');
    const reply = result === 'submitted' ? renderCommentThanks() : { text: FEEDBACK_PROBLEMS[result] };
    await client.chat
      .postEphemeral({ channel: answer.channel, user: person.userId, thread_ts: answer.threadTs, ...reply })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'comment confirmation not shown'));
  };
}
