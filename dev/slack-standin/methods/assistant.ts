import { parseJsonArg, SLACK_LIMITS } from '../limits.js';
import { type MethodHandler, str } from './context.js';

/** Slack clears a thread status after two minutes without a message. */
const STATUS_EXPIRY_MS = 2 * 60 * 1000;

/**
 * assistant.threads.setStatus: `channel_id`, `thread_ts` and `status` are required; at most 10
 * `loading_messages`; short texts. An empty status clears it; a bot post in the thread clears it too.
 * https://docs.slack.dev/reference/methods/assistant.threads.setStatus
 */
export const setStatus: MethodHandler = (args, { state }) => {
  if (state.statusRefusal) return { ok: false, error: state.statusRefusal };
  const channel = str(args.channel_id);
  const threadTs = str(args.thread_ts);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!threadTs) return { ok: false, error: 'invalid_thread_ts' };
  if (args.status === undefined || args.status === null) return { ok: false, error: 'invalid_arguments' };
  const status = String(args.status);
  const loading =
    args.loading_messages === undefined ? { ok: true, value: [] } : parseJsonArg(args.loading_messages);
  if (!loading.ok || !Array.isArray(loading.value) || loading.value.some((m) => typeof m !== 'string')) {
    return { ok: false, error: 'invalid_arguments' };
  }
  const messages = loading.value as string[];
  if (messages.length > SLACK_LIMITS.loadingMessages) return { ok: false, error: 'invalid_arguments' };
  if ([status, ...messages].some((text) => text.length > SLACK_LIMITS.statusChars)) {
    return { ok: false, error: 'invalid_arguments' };
  }
  const entry = {
    channel,
    thread_ts: threadTs,
    status,
    ...(messages.length ? { loading_messages: messages } : {}),
    at: Date.now(),
  };
  state.statuses.push(entry);
  const key = `${channel}:${threadTs}`;
  if (status === '') state.liveStatuses.delete(key);
  else state.liveStatuses.set(key, entry);
  state.touch();
  return { ok: true };
};

/** The status a person sees in the thread now: set, not cleared by a bot post, not expired. */
export function liveStatusOf(
  statuses: ReadonlyMap<string, { status: string; at: number }>,
  channel: string,
  threadTs: string,
  now = Date.now(),
): string | undefined {
  const entry = statuses.get(`${channel}:${threadTs}`);
  return entry && now - entry.at < STATUS_EXPIRY_MS ? entry.status : undefined;
}

/** assistant.threads.setSuggestedPrompts: remembers the latest prompts per channel (and thread, if given). */
export const setSuggestedPrompts: MethodHandler = (args, { state }) => {
  const channel = str(args.channel_id);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  const prompts = parseJsonArg(args.prompts);
  if (!prompts.ok || !Array.isArray(prompts.value)) return { ok: false, error: 'invalid_arguments' };
  if (prompts.value.length === 0 || prompts.value.length > 4)
    return { ok: false, error: 'invalid_arguments' };
  const wellFormed = prompts.value.every(
    (p) => p && typeof p === 'object' && typeof p.title === 'string' && typeof p.message === 'string',
  );
  if (!wellFormed) return { ok: false, error: 'invalid_arguments' };
  state.suggestedPrompts.set(`${channel}:${str(args.thread_ts) ?? ''}`, prompts.value);
  state.touch();
  return { ok: true };
};

/** assistant.threads.setTitle: `channel_id`, `thread_ts` and a non-empty `title` are required. */
export const setTitle: MethodHandler = (args, { state }) => {
  const channel = str(args.channel_id);
  const threadTs = str(args.thread_ts);
  const title = str(args.title);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!threadTs) return { ok: false, error: 'invalid_thread_ts' };
  if (!title || title.length > SLACK_LIMITS.titleChars) return { ok: false, error: 'invalid_arguments' };
  state.titles.set(`${channel}:${threadTs}`, title);
  state.touch();
  return { ok: true };
};
