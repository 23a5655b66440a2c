/**
 * Native feedback (DESIGN "Native feedback"): 👍 / 👎 under every answer, the thanks, the comment form.
 * https://docs.slack.dev/reference/block-kit/block-elements/feedback-buttons-element
 */
import type { ContextActionsBlock } from '@slack/types';

export const FEEDBACK_ACTION_ID = 'answer_feedback';
export const ADD_COMMENT_ACTION_ID = 'answer_feedback_comment';
export const COMMENT_VIEW_CALLBACK_ID = 'answer_feedback_comment_form';
export const COMMENT_BLOCK_ID = 'comment';
export const COMMENT_INPUT_ACTION_ID = 'comment_input';

const POSITIVE = 'positive';
const NEGATIVE = 'negative';
/** Between the score and the turn id in a button value (turn ids are UUIDs: no colon). */
const VALUE_SEPARATOR = ':';
/** Long enough for a useful note, short enough for a dashboard cell. */
const COMMENT_MAX_CHARS = 2_000;

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/**
 * The 👍 / 👎 block; with `turnId` in each value (`positive:<turn id>`), a click before the answer is
 * in the store's index still finds its run (feedback/ratings.ts).
 */
export function feedbackButtonsBlock(turnId?: string): ContextActionsBlock {
  const button = (emoji: string, meaning: string, score: string) => ({
    text: plain(emoji),
    accessibility_label: `Rate this answer as ${meaning}`,
    value: turnId ? `${score}${VALUE_SEPARATOR}${turnId}` : score,
  });
  return {
    type: 'context_actions',
    elements: [
      {
        type: 'feedback_buttons',
        action_id: FEEDBACK_ACTION_ID,
        positive_button: button('👍', 'helpful', POSITIVE),
        negative_button: button('👎', 'not helpful', NEGATIVE),
      },
    ],
  };
}

/** A clicked button's value → its score and turn id (older answers: the bare score); else undefined. */
export function parseFeedbackValue(value: string | undefined) {
  const [head = '', ...rest] = (value ?? '').split(VALUE_SEPARATOR);
  if (head !== POSITIVE && head !== NEGATIVE) return undefined;
  return { score: head === POSITIVE, turnId: rest.join(VALUE_SEPARATOR) || undefined };
}

/** Which answer a comment is about: carried from the click to the form to its submission. */
export type RatedAnswer = { channel: string; ts: string; threadTs: string };

/** `{channel, ts, threadTs}` as a button value or a view's private_metadata (≤ 2,000 / 3,000 chars). */
const encodeRatedAnswer = (answer: RatedAnswer): string =>
  JSON.stringify({ c: answer.channel, t: answer.ts, th: answer.threadTs });

/** The answer encodeRatedAnswer wrote; undefined for anything else. */
export function decodeRatedAnswer(raw: string | undefined): RatedAnswer | undefined {
  try {
    const value = JSON.parse(raw ?? '') as { c?: unknown; t?: unknown; th?: unknown };
    if (typeof value.c !== 'string' || typeof value.t !== 'string') return undefined;
    return { channel: value.c, ts: value.t, threadTs: typeof value.th === 'string' ? value.th : value.t };
  } catch {
    return undefined;
  }
}

/** The ephemeral thanks after a click, with the button that opens the comment form. */
export function renderFeedbackThanks(score: boolean, answer: RatedAnswer) {
  const text = `Thanks for your ${score ? '👍' : '👎'} — it goes to the agent's owners.`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: ADD_COMMENT_ACTION_ID,
            text: plain('Add a comment'),
            value: encodeRatedAnswer(answer),
            accessibility_label: 'Add a comment to your rating',
          },
        ],
      },
    ],
  };
}

/** The one-field form whose submission sends the comment with the session's current rating. */
export function renderCommentForm(answer: RatedAnswer) {
  return {
    type: 'modal' as const,
    callback_id: COMMENT_VIEW_CALLBACK_ID,
    private_metadata: encodeRatedAnswer(answer),
    title: plain('Rate this answer'),
    submit: plain('Send'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'input',
        block_id: COMMENT_BLOCK_ID,
        label: plain('What should the agent have done better (or kept doing)?'),
        element: {
          type: 'plain_text_input',
          action_id: COMMENT_INPUT_ACTION_ID,
          multiline: true,
          max_length: COMMENT_MAX_CHARS,
        },
      },
    ],
  };
}

/** Shown (ephemeral) when a rating or comment could not be recorded. */
export const FEEDBACK_PROBLEMS = {
  'not-an-answer': "I can't find the run behind this answer any more, so I couldn't record your rating.",
  'no-rating': 'Please rate the answer with 👍 or 👎 first, then add your comment.',
  failed: "I couldn't reach the agent service to record that — please try again in a moment.",
  outsider: "Sorry, only people of this workspace's organisation can rate answers.",
} as const;

/** The ephemeral confirmation after a comment was sent. */
export const renderCommentThanks = () => ({ text: 'Thanks — your comment was sent with your rating.' });
