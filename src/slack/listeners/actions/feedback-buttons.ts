import type { AllMiddlewareArgs, BlockFeedbackButtonsAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { personOfInteraction } from '../../payload-person.js';
import { FEEDBACK_PROBLEMS, renderFeedbackThanks, scoreOfFeedbackValue } from '../../views/feedback.js';
import type { ListenerDeps } from '../index.js';

type Args = SlackActionMiddlewareArgs<BlockFeedbackButtonsAction> & AllMiddlewareArgs;

/**
 * 👍 / 👎 under an answer → the same feedback as a reaction, on the session of the turn that answer
 * belongs to; the clicker gets an ephemeral thanks with "Add a comment".
 */
export function feedbackButtonsListener(deps: ListenerDeps) {
  return async ({ ack, action, body, client }: Args): Promise<void> => {
    await ack();
    const score = scoreOfFeedbackValue(action.value);
    const channel = body.channel?.id ?? (body.container.channel_id as string | undefined);
    const ts = body.message?.ts ?? (body.container.message_ts as string | undefined);
    if (score === undefined || !channel || !ts) {
      deps.logger.warn({ value: action.value, channel, ts }, 'feedback click without an answer to rate');
      return;
    }
    const threadTs = (body.message?.thread_ts as string | undefined) ?? ts;
    const person = personOfInteraction(body);
    const result = await deps.reactions.onButton({ channel, ts, score, person });
    deps.logger.debug({ channel, ts, score, result }, 'feedback click handled');
    const view =
      result === 'submitted'
        ? renderFeedbackThanks(score, { channel, ts, threadTs })
        : { text: FEEDBACK_PROBLEMS[result] };
    await client.chat
      .postEphemeral({ channel, user: person.userId, thread_ts: threadTs, ...view })
      .catch((error: unknown) => deps.logger.warn({ err: error, channel }, 'feedback thanks not shown'));
  };
}
