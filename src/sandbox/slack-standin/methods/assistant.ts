import { parseJsonArg } from '../limits.js';
import { type MethodHandler, str } from './context.js';

/** assistant.threads.setStatus: remembers every status set on a thread (an empty one clears it). */
export const setStatus: MethodHandler = (args, { state }) => {
  const channel = str(args.channel_id);
  const threadTs = str(args.thread_ts);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (!threadTs) return { ok: false, error: 'invalid_arguments' };
  if (args.status === undefined) return { ok: false, error: 'invalid_arguments' };
  state.statuses.push({ channel, thread_ts: threadTs, status: String(args.status), at: Date.now() });
  state.touch();
  return { ok: true };
};

/** assistant.threads.setSuggestedPrompts: remembers the latest prompts per channel (and thread, if given). */
export const setSuggestedPrompts: MethodHandler = (args, { state }) => {
  const channel = str(args.channel_id);
  if (!channel) return { ok: false, error: 'channel_not_found' };
  const prompts = parseJsonArg(args.prompts);
  if (!prompts.ok || !Array.isArray(prompts.value)) return { ok: false, error: 'invalid_arguments' };
  if (prompts.value.length > 4) return { ok: false, error: 'invalid_arguments' };
  state.suggestedPrompts.set(`${channel}:${str(args.thread_ts) ?? ''}`, prompts.value);
  state.touch();
  return { ok: true };
};
