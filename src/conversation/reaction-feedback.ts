import { reactionToScore } from './feedback-mapping.js';
import type { AgentRunsPort, ConversationStore, Logger } from './ports.js';

export interface ReactionFeedbackDeps {
  store: ConversationStore;
  agent: AgentRunsPort;
  logger: Logger;
  settings: { feedbackName: string; positiveEmoji: string[]; negativeEmoji: string[] };
}

export interface Reaction {
  channel: string;
  /** The reacted-to message. */
  ts: string;
  reaction: string;
  userId: string;
}

export type ReactionResult = 'submitted' | 'not-feedback-emoji' | 'not-an-answer' | 'failed';

/**
 * 👍/👎 on an answer become boolean feedback on that run's session. The service keeps one
 * record per session, so the latest reaction wins. Removing a reaction changes nothing: the
 * service has no way to delete a record, and guessing a replacement score would misreport.
 */
export function createReactionFeedback(deps: ReactionFeedbackDeps) {
  const { store, agent, logger, settings } = deps;
  const sets = { positive: settings.positiveEmoji, negative: settings.negativeEmoji };

  async function onReaction(reaction: Reaction): Promise<ReactionResult> {
    const score = reactionToScore(reaction.reaction, sets);
    if (score === undefined) return 'not-feedback-emoji';
    const answer = await store.lookupAnswer(reaction.channel, reaction.ts);
    if (!answer) return 'not-an-answer';
    try {
      await agent.submitFeedback(answer.agentId, [
        { sessionId: answer.sessionId, feedbackName: settings.feedbackName, score },
      ]);
      logger.info(
        { threadKey: answer.threadKey, sessionId: answer.sessionId, score, userId: reaction.userId },
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

  return { onReaction };
}

export type ReactionFeedback = ReturnType<typeof createReactionFeedback>;
