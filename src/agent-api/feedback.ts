import { z } from 'zod';
import type { FeedbackInput } from '../conversation/ports.js';
import { type AgentCallOptions, type CallContext, parseBody, segment } from './call-context.js';

/** Feedback on runs: `/v2/ai-agent/<agent_id>/feedback…` (one record per session). */

/** One feedback record, read loosely: the bot acts on none of its fields, so drift must not fail a rating. */
const loose = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
export const feedbackRecordSchema = z.looseObject({
  id: loose(z.union([z.string(), z.number()]).transform(String)),
  createdAt: loose(z.union([z.string(), z.number()])),
  agentId: loose(z.string()),
  accountId: loose(z.number()),
  sessionId: loose(z.string()),
  feedbackName: loose(z.string()),
  score: loose(z.number()),
  comment: loose(z.string().nullable()),
});

/** Any 2xx stored the rating: a list of other shapes reads as no records, not as a failure. */
const feedbackListSchema = z.array(feedbackRecordSchema).catch([]);

export function feedbackCalls({ send }: CallContext) {
  return {
    /** POST /v2/ai-agent/<agent_id>/feedback. An upsert per session, so retrying it is harmless. */
    async submitFeedback(agentId: string, items: FeedbackInput[], options?: AgentCallOptions) {
      const path = `/v2/ai-agent/${segment(agentId)}/feedback`;
      // The seed's item names; `comment` is left out when absent (keeps the old one).
      const body = items.map(({ sessionId, feedbackName, score, comment }) =>
        comment === undefined
          ? { sessionId, feedbackName, score }
          : { sessionId, feedbackName, score, comment },
      );
      const response = await send(
        { endpoint: 'submitFeedback', method: 'POST', path, body, retry: 'idempotent' },
        options,
      );
      // An empty 2xx body stored the rating as well.
      if (response.text.trim() === '') return [];
      return parseBody(response, feedbackListSchema);
    },

    /** GET /v2/ai-agent/<agent_id>/feedback/<session_id>; null when the run has no feedback (404). */
    async getFeedback(agentId: string, sessionId: string, options?: AgentCallOptions) {
      const path = `/v2/ai-agent/${segment(agentId)}/feedback/${segment(sessionId)}`;
      const response = await send(
        { endpoint: 'getFeedback', method: 'GET', path, retry: 'idempotent', acceptStatuses: [404] },
        options,
      );
      if (response.status === 404) return null;
      return parseBody(response, feedbackRecordSchema);
    },
  };
}
