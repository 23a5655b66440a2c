import { z } from 'zod';
import type { FeedbackInput } from '../conversation/ports.js';
import { type AgentCallOptions, type CallContext, callFields, segment } from './call-context.js';
import { parseBody } from './parse-body.js';

/** Feedback on runs: `/v2/ai-agent/<agent_id>/feedback…` (one record per session). */

/** One feedback record. Loose: the service may add members. */
export const feedbackRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  createdAt: z.union([z.string(), z.number()]),
  agentId: z.string(),
  accountId: z.number().int(),
  sessionId: z.string(),
  feedbackName: z.string(),
  score: z.number(),
  comment: z.string().nullish(),
});
export type FeedbackRecord = z.infer<typeof feedbackRecordSchema>;

const feedbackListSchema = z.array(feedbackRecordSchema);

/** The request items as the seed names them; `comment` is left out when absent (keeps the old one). */
function feedbackBody(items: FeedbackInput[]) {
  return items.map(({ sessionId, feedbackName, score, comment }) =>
    comment === undefined ? { sessionId, feedbackName, score } : { sessionId, feedbackName, score, comment },
  );
}

/** POST /v2/ai-agent/<agent_id>/feedback. An upsert per session, so retrying it is harmless. */
export async function submitFeedback(
  context: CallContext,
  agentId: string,
  items: FeedbackInput[],
  options?: AgentCallOptions,
): Promise<FeedbackRecord[]> {
  const response = await context.send({
    endpoint: 'submitFeedback',
    method: 'POST',
    path: `/v2/ai-agent/${segment(agentId)}/feedback`,
    token: context.agentToken,
    body: feedbackBody(items),
    kind: 'other',
    retry: 'idempotent',
    ...callFields(options, context.requestTimeoutMs),
  });
  return parseBody(response, feedbackListSchema);
}

/** GET /v2/ai-agent/<agent_id>/feedback/<session_id>; null when the run has no feedback (404). */
export async function getFeedback(
  context: CallContext,
  agentId: string,
  sessionId: string,
  options?: AgentCallOptions,
): Promise<FeedbackRecord | null> {
  const response = await context.send({
    endpoint: 'getFeedback',
    method: 'GET',
    path: `/v2/ai-agent/${segment(agentId)}/feedback/${segment(sessionId)}`,
    token: context.agentToken,
    kind: 'other',
    retry: 'idempotent',
    acceptStatuses: [404],
    ...callFields(options, context.requestTimeoutMs),
  });
  if (response.status === 404) return null;
  return parseBody(response, feedbackRecordSchema);
}
