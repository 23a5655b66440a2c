/**
 * GET /v2/ai-agent/<agent_id>/<session_id> — a long poll. It answers at once when there is news
 * for the session (a status or step count it has not reported yet, or a terminal status, which is
 * repeated on every later poll); otherwise it holds until the next step is due or longPollMs runs
 * out, and then answers {status:'timeout'} ("nothing new yet, poll again").
 */
import { structuredMessage } from './agents.js';
import type { Handler } from './context.js';
import { statusFailure } from './faults.js';
import { errorResponse, sleep } from './http-io.js';
import { isTerminal, type Report, type RunRecord } from './runs.js';

/** A held poll wakes this much after a step is due, so the step is surely visible. */
const WAKE_SLACK_MS = 1;

export const getStatus: Handler = async (ctx, req) => {
  await sleep(ctx.faults.statusLatencyMs, req.signal);
  if (ctx.faults.statusErrorRate > 0 && ctx.random() < ctx.faults.statusErrorRate)
    return statusFailure(ctx.random);
  const agentId = req.params.agentId ?? '';
  const sessionId = req.params.sessionId ?? '';
  const record = ctx.runs.get(sessionId);
  if (!record || record.agentId !== agentId) {
    return errorResponse(404, 'SESSION_NOT_FOUND', `Session ${sessionId} not found for agent ${agentId}`);
  }
  const deadline = ctx.now() + ctx.options.longPollMs;
  for (;;) {
    const now = ctx.now();
    const report = ctx.runs.report(record, now);
    const key = `${report.turn}:${report.state.status}:${report.state.totalSteps}`;
    // A stale terminal status (the previous turn's, right after a follow-up) is shown once, then held:
    // repeating it at once would only make clients spin through the stale window.
    if ((isTerminal(report.state.status) && !report.stale) || record.lastReported !== key) {
      record.lastReported = key;
      return { status: 200, body: statusBody(record, report) };
    }
    if (now >= deadline || req.signal.aborted) return { status: 200, body: { status: 'timeout' } };
    const next = ctx.runs.nextChangeAt(record, now);
    const until = next === undefined ? deadline : Math.min(deadline, next + WAKE_SLACK_MS);
    await holdUntilNews(record, Math.max(1, until - now), req.signal);
  }
};

function statusBody(record: RunRecord, report: Report) {
  const { status, totalSteps } = report.state;
  const message = structuredMessage(record.agentId, status, report.state.message);
  return { status, ...(message !== undefined && { message }), totalSteps };
}

/** Waits ms, or less when a follow-up wakes the session's waiters or the request is aborted. */
function holdUntilNews(record: RunRecord, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      record.waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    record.waiters.add(done);
  });
}
