/** Answer channels (DESIGN "Answer channels"): the `/agent channel answer-all on|off` switch (store). */
import { channelOfName, type Tenant, tenantName } from '../tenancy.js';
import type { Classification } from '../turn/message-classifier.js';

/** A channel whose people's top-level messages are all questions. */
export interface AnswerChannel {
  /** Who turned it on, and when (epoch ms): for the audit trail and App Home. */
  by: string;
  at: number;
}

/** Answer channels in the store (no expiry), each under its installation's `tenantName`. */
export interface AnswerChannelStore {
  getAnswerChannel(name: string): Promise<AnswerChannel | undefined>;
  saveAnswerChannel(name: string, setting: AnswerChannel): Promise<void>;
  deleteAnswerChannel(name: string): Promise<void>;
  /** Every answer channel's name, sorted (App Home). */
  listAnswerChannels(): Promise<string[]>;
}

/** The switch is the installation's that turned it on: a shared channel has one per installation. */
export function createAnswerChannels(deps: { store: AnswerChannelStore; now: () => number }) {
  const { store } = deps;

  /** The channel's switch in `tenant`'s installation, if on. */
  function settingOf(tenant: Tenant, channel: string): Promise<AnswerChannel | undefined> {
    return store.getAnswerChannel(tenantName(tenant.key, channel));
  }

  /** Turns answering every message on or off; returns whether it was on before. */
  async function set(
    tenant: Tenant,
    channel: string,
    on: boolean,
    userId: string,
  ): Promise<{ wasOn: boolean }> {
    const name = tenantName(tenant.key, channel);
    const before = await store.getAnswerChannel(name);
    // Switching on twice keeps who turned it on first (the audit line still names both).
    if (on) await store.saveAnswerChannel(name, { by: before?.by ?? userId, at: before?.at ?? deps.now() });
    else if (before) await store.deleteAnswerChannel(name);
    return { wasOn: before !== undefined };
  }

  /** The answer channels of `tenant`'s installation (one workspace: all of them). */
  async function list(tenant: Tenant): Promise<string[]> {
    const names = await store.listAnswerChannels();
    return names.filter((name) => tenantName(tenant.key, channelOfName(name)) === name).map(channelOfName);
  }

  return { settingOf, set, list };
}

export type AnswerChannels = ReturnType<typeof createAnswerChannels>;

/** Whether a `not-addressed` message (a mention's path is another) is a question in an allowed channel. */
export function isAnswerAllCandidate(
  verdict: Classification,
  channel: string,
  allowedChannelIds: readonly string[],
): boolean {
  if (verdict.kind !== 'ignore' || verdict.reason !== 'not-addressed') return false;
  return allowedChannelIds.length === 0 || allowedChannelIds.includes(channel);
}
