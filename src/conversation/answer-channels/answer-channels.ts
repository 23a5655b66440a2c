/**
 * Answer channels (`/agent channel answer-all on|off`, DESIGN "Answer channels"): in such a channel
 * every new top-level message by a person inside starts a run in its thread, no mention needed.
 * Kept in the store like watched channels, so every replica sees the switch and it survives
 * restarts (with Redis). Which messages count is the listener's and the classifier's business;
 * this only keeps the switch.
 */

import type { Classification } from '../turn/message-classifier.js';

/** A channel whose people's top-level messages are all questions. */
export interface AnswerChannel {
  /** Who turned it on, and when (epoch ms): for the audit trail and App Home. */
  by: string;
  at: number;
  /** With OAuth: the installation whose admin turned it on (its admins' App Home lists it). */
  installation?: string | undefined;
}

/** Answer channels, kept in the store (no expiry: an admin turns them off). */
export interface AnswerChannelStore {
  getAnswerChannel(channel: string): Promise<AnswerChannel | undefined>;
  saveAnswerChannel(channel: string, setting: AnswerChannel): Promise<void>;
  deleteAnswerChannel(channel: string): Promise<void>;
  /** Every answer channel's id, sorted (App Home). */
  listAnswerChannels(): Promise<string[]>;
}

export function createAnswerChannels(deps: {
  store: AnswerChannelStore;
  now: () => number;
  /** With OAuth: the installation under way, kept with each switch and used to filter the list. */
  installation?: (() => string | undefined) | undefined;
}) {
  const { store } = deps;

  /** The channel's switch, if on. */
  function settingOf(channel: string): Promise<AnswerChannel | undefined> {
    return store.getAnswerChannel(channel);
  }

  /** Turns answering every message on or off; returns whether it was on before. */
  async function set(channel: string, on: boolean, userId: string): Promise<{ wasOn: boolean }> {
    const before = await store.getAnswerChannel(channel);
    if (!on) {
      if (before) await store.deleteAnswerChannel(channel);
      return { wasOn: before !== undefined };
    }
    // Switching on twice keeps who turned it on first (the audit line still names both).
    const installation = before?.installation ?? deps.installation?.();
    await store.saveAnswerChannel(channel, {
      by: before?.by ?? userId,
      at: before?.at ?? deps.now(),
      ...(installation ? { installation } : {}),
    });
    return { wasOn: before !== undefined };
  }

  /** The answer channels the installation under way turned on (one workspace: all of them). */
  async function list(): Promise<string[]> {
    const channels = await store.listAnswerChannels();
    const settings = await Promise.all(channels.map((channel) => store.getAnswerChannel(channel)));
    const view = deps.installation?.();
    return channels.filter((_, index) => settings[index] && settings[index]?.installation === view);
  }

  return { settingOf, set, list };
}

export type AnswerChannels = ReturnType<typeof createAnswerChannels>;

/**
 * Whether a message the classifier left alone could be a question in an answer channel: a person's
 * new top-level message that does not mention the bot (the mention path takes those, so a mention
 * starts exactly one run) in a channel the allowlist lets the bot answer in. Bots, integrations,
 * edits, system subtypes, replies and DMs never get here: the classifier names them otherwise.
 */
export function isAnswerAllCandidate(
  verdict: Classification,
  channel: string,
  allowedChannelIds: readonly string[],
): boolean {
  if (verdict.kind !== 'ignore' || verdict.reason !== 'not-addressed') return false;
  return allowedChannelIds.length === 0 || allowedChannelIds.includes(channel);
}
