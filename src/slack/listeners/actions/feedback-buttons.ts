import type { AllMiddlewareArgs, BlockFeedbackButtonsAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { Ratings } from '../../../conversation/feedback/ratings.js';
import type { Logger } from '../../../runtime/logger.js';
import { personOfInteraction } from '../../payload-person.js';
import { ANSWER_EVENT_TYPE } from '../../turn-messages.js';
import { FEEDBACK_PROBLEMS, parseFeedbackValue, renderFeedbackThanks } from '../../views/feedback.js';

type Args = SlackActionMiddlewareArgs<BlockFeedbackButtonsAction> & AllMiddlewareArgs;

/** 👍 / 👎 under an answer → feedback as by reaction, on its turn's session; an ephemeral thanks back. */
export function feedbackButtonsListener(deps: { reactions: Ratings; logger: Logger }) {
  return async ({ ack, action, body, client }: Args): Promise<void> => {
    await ack();
    const clicked = parseFeedbackValue(action.value);
    const score = clicked?.score;
    const channel = body.channel?.id ?? (body.container.channel_id as string | undefined);
    const ts = body.message?.ts ?? (body.container.message_ts as string | undefined);
    if (score === undefined || !channel || !ts) {
      deps.logger.warn({ value: action.value, channel, ts }, 'feedback click without an answer to rate');
      return;
    }
    const threadTs = (body.message?.thread_ts as string | undefined) ?? ts;
    const person = personOfInteraction(body);
    const turnId = clicked?.turnId ?? answerTurnIdOf(body.message);
    const result = await deps.reactions.onButton({ channel, ts, score, person, turnId });
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

/** The turn id in the clicked message's `agent_answer` metadata: for buttons older than their value's. */
function answerTurnIdOf(message: Args['body']['message']): string | undefined {
  const metadata = (message as { metadata?: { event_type?: string; event_payload?: { turn_id?: unknown } } })
    ?.metadata;
  const turnId = metadata?.event_type === ANSWER_EVENT_TYPE ? metadata.event_payload?.turn_id : undefined;
  return typeof turnId === 'string' ? turnId : undefined;
}
