import type { StandinState } from '../state.js';
import type { SlackResult } from '../types.js';
import { type MethodHandler, str } from './context.js';

/** Adds `user`'s reaction `name` to a message; Slack's errors when the message or reaction is wrong. */
export function addReaction(
  state: StandinState,
  channel: string,
  ts: string,
  name: string,
  user: string,
): SlackResult {
  const message = state.findMessage(channel, ts);
  if (!message) return { ok: false, error: 'message_not_found' };
  if (!name) return { ok: false, error: 'invalid_name' };
  const reactions = message.reactions ?? [];
  const existing = reactions.find((r) => r.name === name);
  if (existing?.users.includes(user)) return { ok: false, error: 'already_reacted' };
  if (existing) {
    existing.users.push(user);
    existing.count += 1;
  } else {
    reactions.push({ name, users: [user], count: 1 });
  }
  message.reactions = reactions;
  state.touch();
  return { ok: true };
}

/** Removes `user`'s reaction `name` from a message. */
export function removeReaction(
  state: StandinState,
  channel: string,
  ts: string,
  name: string,
  user: string,
): SlackResult {
  const message = state.findMessage(channel, ts);
  if (!message) return { ok: false, error: 'message_not_found' };
  const existing = message.reactions?.find((r) => r.name === name);
  if (!existing?.users.includes(user)) return { ok: false, error: 'no_reaction' };
  existing.users = existing.users.filter((u) => u !== user);
  existing.count -= 1;
  message.reactions = message.reactions?.filter((r) => r.count > 0);
  if (message.reactions?.length === 0) delete message.reactions;
  state.touch();
  return { ok: true };
}

/** Slack accepts `:thumbsup:` as well as `thumbsup`. */
function reactionName(args: Record<string, unknown>): string {
  return (str(args.name) ?? '').replace(/^:|:$/g, '');
}

/** reactions.add, as the bot. */
export const add: MethodHandler = (args, { state }) =>
  addReaction(
    state,
    str(args.channel) ?? '',
    str(args.timestamp) ?? '',
    reactionName(args),
    state.identity.botUserId,
  );

/** reactions.remove, as the bot. */
export const remove: MethodHandler = (args, { state }) =>
  removeReaction(
    state,
    str(args.channel) ?? '',
    str(args.timestamp) ?? '',
    reactionName(args),
    state.identity.botUserId,
  );
