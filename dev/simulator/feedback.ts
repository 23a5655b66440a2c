/**
 * Feedback on runs. Seed: one record per session; submitting again updates it, and omitting comment
 * on such an update keeps the old comment; a boolean score is stored as 100 (true) or 0 (false).
 * Sessions are not checked against the simulator's runs: runs started by Scheduled, Deployment or
 * Alert triggers can be rated too, and the simulator never saw those start.
 */
import { randomUUID } from 'node:crypto';
import { accountIdOf } from './auth.js';
import type { Handler } from './context.js';
import { errorResponse, invalidBody, isObject, jsonOf } from './http-io.js';
import type { FeedbackRecord } from './types.js';

interface FeedbackItem {
  sessionId: string;
  feedbackName: string;
  score: number;
  comment?: string;
}

/** Feedback records keyed by session. */
export class FeedbackStore {
  private readonly bySession = new Map<string, FeedbackRecord>();

  upsert(agentId: string, accountId: number, item: FeedbackItem, now: number): FeedbackRecord {
    const existing = this.bySession.get(item.sessionId);
    const record: FeedbackRecord = {
      id: existing?.id ?? randomUUID(),
      createdAt: existing?.createdAt ?? new Date(now).toISOString(),
      agentId,
      accountId,
      sessionId: item.sessionId,
      feedbackName: item.feedbackName,
      score: item.score,
    };
    const comment = item.comment ?? existing?.comment;
    if (comment !== undefined) record.comment = comment;
    this.bySession.set(item.sessionId, record);
    return { ...record };
  }

  get(sessionId: string): FeedbackRecord | undefined {
    const record = this.bySession.get(sessionId);
    return record && { ...record };
  }

  clear(): void {
    this.bySession.clear();
  }
}

/** Every item of a feedback body, or why the body is refused (nothing is stored then). */
function parseFeedback(value: unknown): FeedbackItem[] | string {
  if (!Array.isArray(value)) return 'Request body must be a JSON array of feedback items';
  if (value.length === 0) return 'At least one feedback item is required';
  const items: FeedbackItem[] = [];
  for (const [i, raw] of value.entries()) {
    if (!isObject(raw)) return `Item ${i} must be an object`;
    const { sessionId, feedbackName, score, comment } = raw;
    if (typeof sessionId !== 'string' || sessionId === '')
      return `Item ${i}: sessionId must be a non-empty string`;
    if (typeof feedbackName !== 'string' || feedbackName === '') {
      return `Item ${i}: feedbackName must be a non-empty string`;
    }
    if (typeof score !== 'boolean' && !(typeof score === 'number' && Number.isFinite(score))) {
      return `Item ${i}: score must be a number or a boolean`;
    }
    if (comment !== undefined && typeof comment !== 'string') return `Item ${i}: comment must be a string`;
    items.push({
      sessionId,
      feedbackName,
      score: typeof score === 'boolean' ? (score ? 100 : 0) : score,
      ...(comment !== undefined && { comment }),
    });
  }
  return items;
}

/** POST /v2/ai-agent/<agent_id>/feedback */
export const submitFeedback: Handler = (ctx, req) => {
  const agentId = req.params.agentId ?? '';
  if (!ctx.agents.get(agentId)) return errorResponse(404, 'AGENT_NOT_FOUND', `Agent ${agentId} not found`);
  const items = parseFeedback(jsonOf(req.body));
  if (typeof items === 'string') return invalidBody(items);
  const now = ctx.now();
  const records = items.map((item) => ctx.feedback.upsert(agentId, accountIdOf(req.token), item, now));
  return { status: 200, body: ctx.faults.feedbackRecordDrift ? records.map(drifted) : records };
};

/** A record in a drifted format: other types, a member gone, one added (the rating is stored). */
function drifted(record: FeedbackRecord) {
  const { agentId: _agentId, ...rest } = record;
  return {
    ...rest,
    id: Number.parseInt(record.id.replace(/\D/g, '').slice(0, 9) || '1', 10),
    accountId: String(record.accountId),
    score: String(record.score),
    createdAt: Date.parse(record.createdAt),
    source: 'api',
  };
}

/** GET /v2/ai-agent/<agent_id>/feedback/<session_id> */
export const getFeedback: Handler = (ctx, req) => {
  const agentId = req.params.agentId ?? '';
  const sessionId = req.params.sessionId ?? '';
  const record = ctx.feedback.get(sessionId);
  if (!record || record.agentId !== agentId) {
    return errorResponse(404, 'FEEDBACK_NOT_FOUND', `No feedback for session ${sessionId}`);
  }
  return { status: 200, body: record };
};
