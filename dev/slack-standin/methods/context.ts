import type { StandinState } from '../state.js';
import type { SlackResult, StoredMessage } from '../types.js';

/** What a Web API method handler gets besides its arguments. */
export interface MethodContext {
  state: StandinState;
  /** The stand-in's base URL, e.g. 'http://127.0.0.1:PORT' (no trailing slash). */
  baseUrl: string;
}

/** One Web API method: arguments as sent (form strings or JSON values) → Slack's answer. */
export type MethodHandler = (args: Record<string, unknown>, ctx: MethodContext) => SlackResult;

/** A string argument, or undefined when absent or empty. */
export function str(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const s = String(value);
  return s === '' ? undefined : s;
}

/** Form bodies send booleans as 'true'/'1'. */
export function bool(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 1;
}

/** Slack's channel checks for methods that write to a channel. */
export function channelProblem(state: StandinState, channel: string | undefined): SlackResult | undefined {
  if (!channel) return { ok: false, error: 'channel_not_found' };
  if (state.missingChannels.has(channel)) return { ok: false, error: 'channel_not_found' };
  if (state.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
  return undefined;
}

/** A stored message as the Web API returns it (without the stand-in's bookkeeping fields). */
export function publicMessage(message: StoredMessage): Record<string, unknown> {
  const { channel: _channel, deleted: _deleted, ...rest } = message;
  // Integrations' messages carry no user at all (bot_id and username instead).
  if (rest.user === '') return Object.fromEntries(Object.entries(rest).filter(([key]) => key !== 'user'));
  return rest;
}
