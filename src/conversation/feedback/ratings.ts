import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { InsideCheck, PersonRef } from '../access/who-is-inside.js';
import { type ConnectionRuns, runsOn } from '../connection-runs.js';
import type { AgentRunsPort, ConversationStore } from '../ports.js';
import { parseThreadKey } from '../thread-key.js';
import type { AnswerRef } from '../turn/turn-records.js';
import { createAnswerLookup } from './answer-lookup.js';
import { reactionToScore } from './feedback-mapping.js';

export interface Reaction {
  channel: string;
  ts: string;
  reaction: string;
  userId: string;
  /** The reacting person's workspace, when the payload names one (`reaction_added` does not). */
  workspaceId?: string | undefined;
  /** The reacted-to message is the bot's (`item_user`): it may be an answer not yet indexed. */
  onBotMessage?: boolean | undefined;
}

/** A click on an answer's 👍 / 👎 button. */
export interface ButtonRating {
  channel: string;
  ts: string;
  score: boolean;
  person: PersonRef;
  /** The answer's turn, as the click carries it: finds the run before the answer is indexed. */
  turnId?: string | undefined;
}

/** A comment written in the feedback form opened from the thanks after a click. */
export interface RatingComment {
  channel: string;
  ts: string;
  comment: string;
  person: PersonRef;
}

export type ReactionResult = 'submitted' | 'not-feedback-emoji' | 'not-an-answer' | 'outsider' | 'failed';
export type ButtonResult = Exclude<ReactionResult, 'not-feedback-emoji'>;
export type CommentResult = ButtonResult | 'no-rating';

/** One rating of one answer, from any entry path (a reaction, a button, the comment form). */
export interface Rating {
  answer: AnswerRef;
  score: boolean;
  person: PersonRef;
  comment?: string | undefined;
}

interface RatingsDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  /** The other service connections: a rating goes to the service its answer came from. */
  connections?: ConnectionRuns | undefined;
  logger: Logger;
  inside: InsideCheck;
  settings: { feedbackName: string; positiveEmoji: string[]; negativeEmoji: string[] };
  /** Lets a reaction on a bot message wait briefly for its index entry (answer-lookup.ts). */
  clock?: Clock | undefined;
  /** Told after a rating reached the service (App Home's feedback coverage). Must not throw. */
  onRated?: ((answer: AnswerRef) => void) | undefined;
}

/** 👍/👎 on an answer as feedback on its session (DESIGN "Native feedback"); an unreaction cannot delete it. */
export function createRatings(deps: RatingsDeps) {
  const { store, settings } = deps;
  const sets = { positive: settings.positiveEmoji, negative: settings.negativeEmoji };
  const answers = createAnswerLookup({ store, clock: deps.clock });

  /** Sends one rating; every way of rating goes through here, so none skips the inside check. */
  async function rate(rating: Rating): Promise<Exclude<ButtonResult, 'not-an-answer'>> {
    const { answer, person } = rating;
    const verdict = await deps.inside.check(person);
    if (verdict.inside) return submit(deps, rating);
    deps.logger.info(
      { threadKey: answer.threadKey, userId: person.userId, reason: verdict.reason },
      'feedback from outside the organisation ignored',
    );
    return 'outsider';
  }

  async function onReaction(reaction: Reaction): Promise<ReactionResult> {
    const score = reactionToScore(reaction.reaction, sets);
    if (score === undefined) return 'not-feedback-emoji';
    const answer = await answers.byReaction(reaction.channel, reaction.ts, reaction.onBotMessage === true);
    if (!answer) return 'not-an-answer';
    return rate({ answer, score, person: { userId: reaction.userId, workspaceId: reaction.workspaceId } });
  }

  /** A click rates the turn the clicked answer belongs to, however far the thread has moved on. */
  async function onButton(click: ButtonRating): Promise<ButtonResult> {
    const answer = await answers.byClick(click.channel, click.ts, click.turnId);
    if (!answer) return 'not-an-answer';
    return rate({ answer, score: click.score, person: click.person });
  }

  /** Sends the comment with the session's current rating (the service keeps one record per session). */
  async function onComment(comment: RatingComment): Promise<CommentResult> {
    // By the index alone: the comment form comes long after the click.
    const answer = await store.lookupAnswer(comment.channel, comment.ts);
    if (!answer) return 'not-an-answer';
    const score = await store.getRating(answer.sessionId);
    if (score === undefined) return 'no-rating';
    return rate({ answer, score, person: comment.person, comment: comment.comment });
  }

  return { onReaction, onButton, onComment, rate };
}

export type Ratings = ReturnType<typeof createRatings>;

/** A rating of an insider: to the service its answer came from, then kept as the session's current one. */
async function submit(deps: RatingsDeps, rating: Rating): Promise<'submitted' | 'failed'> {
  const { answer, score, person, comment } = rating;
  const { logger } = deps;
  try {
    // The thread's installation (its key's team) owns the connection the rating goes to.
    const teamId = parseThreadKey(answer.threadKey)?.teamId ?? '';
    await runsOn(deps.agent, deps.connections, answer.connection, teamId).submitFeedback(answer.agentId, [
      {
        sessionId: answer.sessionId,
        feedbackName: deps.settings.feedbackName,
        score,
        ...(comment !== undefined ? { comment } : {}),
      },
    ]);
    await deps.store.saveRating(answer.sessionId, score);
    deps.onRated?.(answer);
    logger.info(
      {
        threadKey: answer.threadKey,
        sessionId: answer.sessionId,
        score,
        userId: person.userId,
        comment: comment !== undefined,
      },
      'feedback submitted',
    );
    return 'submitted';
  } catch (error) {
    logger.error({ err: error, threadKey: answer.threadKey, sessionId: answer.sessionId }, 'feedback failed');
    return 'failed';
  }
}
