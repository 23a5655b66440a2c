import { clickEphemeralButton, clickFeedbackButton, submitNewestForm } from '../slack-standin/index.js';
import { SPEAKER, speak } from './render-terminal.js';
import { feedbackPosts, type ReactionContext, reportFeedback } from './sandbox-reaction.js';
import { SANDBOX_USER } from './sandbox-stack.js';

/** The "Add a comment" button of the bot's thanks (src/slack/views/feedback.ts). */
const ADD_COMMENT_ACTION_ID = 'answer_feedback_comment';

/**
 * `/rate good|bad [comment]`: the person clicks 👍 / 👎 under the last answer of the thread — a
 * signed `block_actions` as Slack sends it — and, with a comment, clicks "Add a comment" in the
 * thanks, and submits the form the bot opens (`views.open`, then `view_submission`).
 */
export async function rateAnswer(ctx: ReactionContext, positive: boolean, comment?: string): Promise<void> {
  const { stack, out, thread } = ctx;
  const answer = thread && ctx.monitor.lastRateableAnswer(thread);
  if (!thread || !answer) {
    out.line(speak(SPEAKER.sandbox, 'nothing to rate yet: there is no answer with buttons in this thread'));
    return;
  }
  // The thread's conversation: the DM when the bot answered there; its thanks appear there too.
  const { channel } = thread;
  const app = { appUrl: stack.appUrl, signingSecret: stack.signingSecret };
  const actor = { user: SANDBOX_USER.id };
  const sentBefore = feedbackPosts(stack.sim).length;
  const ephemeralsBefore = stack.slack.ephemerals(channel, SANDBOX_USER.id).length;
  const clicked = await clickFeedbackButton(stack.slack, app, answer, positive, actor);
  if (clicked.status !== 200) throw new Error(`the bot answered HTTP ${clicked.status} to the click`);
  out.line(speak(SPEAKER.sandbox, `you clicked ${positive ? '👍' : '👎'} under the last answer`));
  const sent = await stack.slack.waitFor(() => feedbackPosts(stack.sim)[sentBefore], {
    timeoutMs: 10_000,
    description: 'the bot to send the rating to the agent service',
  });
  await reportFeedback(ctx, thread, sent.status);
  // The thanks (with its "Add a comment" button) is an ephemeral; the form opens from it.
  await shownEphemeral(ephemeralsBefore, 'the thanks with "Add a comment"');
  if (!comment) return;
  const viewsBefore = stack.slack.openedViews().length;
  await clickEphemeralButton(stack.slack, app, channel, ADD_COMMENT_ACTION_ID, actor);
  await stack.slack.waitFor(() => stack.slack.openedViews().length > viewsBefore, {
    description: 'the comment form',
  });
  out.line(speak(SPEAKER.sandbox, `you wrote in the comment form: ${comment}`));
  const commentsBefore = feedbackPosts(stack.sim).length;
  const submitted = await submitNewestForm(stack.slack, app, comment, actor);
  if (submitted.status !== 200) throw new Error(`the bot answered HTTP ${submitted.status} to the form`);
  const posted = await stack.slack.waitFor(() => feedbackPosts(stack.sim)[commentsBefore], {
    timeoutMs: 10_000,
    description: 'the bot to send the comment to the agent service',
  });
  if (posted.status !== 200) {
    out.line(speak(SPEAKER.sandbox, `the agent service refused the comment (HTTP ${posted.status})`));
    return;
  }
  const record = thread.sessionId ? stack.sim.feedback(thread.sessionId) : undefined;
  out.line(
    speak(SPEAKER.sandbox, `comment recorded with score ${record?.score}: "${record?.comment ?? ''}"`),
  );
  await shownEphemeral(ephemeralsBefore + 1, 'the confirmation of the comment');

  /** Waits for the bot's next ephemeral and prints it before the next line is read. */
  async function shownEphemeral(countBefore: number, description: string): Promise<void> {
    await stack.slack.waitFor(() => stack.slack.ephemerals(channel, SANDBOX_USER.id).length > countBefore, {
      description,
    });
    ctx.monitor.poll();
  }
}
