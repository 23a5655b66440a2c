import { reactionToScore } from './feedback-mapping.js';
import type { AgentRunsPort, AnswerRef, ConversationStore, Logger } from './ports.js';
import type { InsideCheck, PersonRef } from './who-is-inside.js';

export interface ReactionFeedbackDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  logger: Logger;
  /** Only people inside the organisation may rate (DESIGN "Who is inside"). */
  inside: InsideCheck;
  settings: { feedbackName: string; positiveEmoji: string[]; negativeEmoji: string[] };
}

export interface Reaction {
  channel: string;
  /** The reacted-to message. */
  ts: string;
  reaction: string;
  userId: string;
  /** The reacting person's workspace, when the payload names one (`reaction_added` does not). */
  workspaceId?: string | undefined;
}

export type ReactionResult = 'submitted' | 'not-feedback-emoji' | 'not-an-answer' | 'outsider' | 'failed';

/** One rating of one answer, from any entry path (a reaction, a button). */
export interface Rating {
  answer: AnswerRef;
  score: boolean;
  person: PersonRef;
  comment?: string | undefined;
}

/**
 * 👍/👎 on an answer become boolean feedback on that run's session. The service keeps one
 * record per session, so the latest reaction wins. Removing a reaction changes nothing: the
 * service has no way to delete a record, and guessing a replacement score would misreport.
 */
export function createReactionFeedback(deps: ReactionFeedbackDeps) {
  const { store, agent, logger, settings } = deps;
  const sets = { positive: settings.positiveEmoji, negative: settings.negativeEmoji };

  /**
   * Sends one rating, after checking that the person is inside the organisation: every way of
   * rating goes through here, so none can skip the check.
   */
  async function rate(
    rating: Rating,
  ): Promise<Exclude<ReactionResult, 'not-feedback-emoji' | 'not-an-answer'>> {
    const { answer, score, person } = rating;
    const verdict = await deps.inside.check(person);
    if (!verdict.inside) {
      logger.info(
        { threadKey: answer.threadKey, userId: person.userId, reason: verdict.reason },
        'feedback from outside the organisation ignored',
      );
      return 'outsider';
    }
    try {
      await agent.submitFeedback(answer.agentId, [
        { sessionId: answer.sessionId, feedbackName: settings.feedbackName, score, comment: rating.comment },
      ]);
      logger.info(
        { threadKey: answer.threadKey, sessionId: answer.sessionId, score, userId: person.userId },
        'feedback submitted',
      );
      return 'submitted';
    } catch (error) {
      logger.error(
        { err: error, threadKey: answer.threadKey, sessionId: answer.sessionId },
        'feedback failed',
      );
      return 'failed';
    }
  }

  async function onReaction(reaction: Reaction): Promise<ReactionResult> {
    const score = reactionToScore(reaction.reaction, sets);
    if (score === undefined) return 'not-feedback-emoji';
    const answer = await store.lookupAnswer(reaction.channel, reaction.ts);
    if (!answer) return 'not-an-answer';
    return rate({ answer, score, person: { userId: reaction.userId, workspaceId: reaction.workspaceId } });
  }

  return { onReaction, rate };
}

export type ReactionFeedback = ReturnType<typeof createReactionFeedback>;
