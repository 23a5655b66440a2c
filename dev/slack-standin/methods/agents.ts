import type { MethodHandler } from './context.js';
import { str } from './context.js';

/** `agents.sessions.setStatus` statuses (https://docs.slack.dev/reference/methods/agents.sessions.setStatus). */
const STATUSES = new Set(['active', 'processing', 'suspended', 'closed']);
/** Both methods: a session title is 1–200 characters. */
const TITLE_MAX_CHARS = 200;

const titleProblem = (title: unknown) =>
  title !== undefined && (typeof title !== 'string' || title.length < 1 || title.length > TITLE_MAX_CHARS);

/**
 * agents.sessions.setStatus: `channel_id`, `status` (one of four) and, for a thread session,
 * `thread_ts` are required; `title` (≤ 200 chars) names a session this call creates and is
 * ignored otherwise. The stand-in has no session channels, so `thread_ts` is always required.
 */
export const sessionsSetStatus: MethodHandler = (args, { state }) => {
  const book = state.agentSessions;
  if (book.refusal) return { ok: false, error: book.refusal };
  const channel = str(args.channel_id);
  const threadTs = str(args.thread_ts);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!threadTs) return { ok: false, error: 'invalid_thread_ts' };
  const status = str(args.status);
  if (!status || !STATUSES.has(status)) return { ok: false, error: 'invalid_arguments' };
  if (titleProblem(args.title)) return { ok: false, error: 'invalid_arguments' };
  const title = str(args.title);
  const key = `${channel}:${threadTs}`;
  const existing = book.sessions.get(key);
  book.sessions.set(key, { status, title: existing ? existing.title : title });
  book.calls.push({
    method: 'agents.sessions.setStatus',
    channel,
    thread_ts: threadTs,
    status,
    ...(title ? { title } : {}),
    at: Date.now(),
  });
  state.touch();
  return { ok: true };
};

/**
 * agents.sessions.rename: `channel_id`, `thread_ts` and `title` (1–200 characters) are required,
 * and the session must exist (the stand-in's reading: a thread with no session has nothing to rename).
 */
export const sessionsRename: MethodHandler = (args, { state }) => {
  const book = state.agentSessions;
  if (book.refusal) return { ok: false, error: book.refusal };
  const channel = str(args.channel_id);
  const threadTs = str(args.thread_ts);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!threadTs) return { ok: false, error: 'invalid_thread_ts' };
  if (args.title === undefined || titleProblem(args.title)) return { ok: false, error: 'invalid_arguments' };
  const key = `${channel}:${threadTs}`;
  const existing = book.sessions.get(key);
  if (!existing) return { ok: false, error: 'session_not_found' };
  const title = String(args.title);
  book.sessions.set(key, { ...existing, title });
  book.calls.push({ method: 'agents.sessions.rename', channel, thread_ts: threadTs, title, at: Date.now() });
  state.touch();
  return { ok: true };
};
