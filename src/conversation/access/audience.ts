import type { Logger } from '../../runtime/logger.js';
import type { BotUser } from '../context/context-ports.js';
import type { InsideCheck } from './who-is-inside.js';

/** Who can read a conversation (DESIGN "Who reads the answer"): unknown counts as outsiders (fail closed). */

/** What Slack says about a conversation, as far as who reads it. */
export interface ConversationFacts {
  isIm: boolean;
  /** Shared with another organisation, or an invitation to share is pending. */
  externallyShared: boolean;
  /** Every member's id; undefined when the conversation is bigger than the member limit. */
  members?: string[] | undefined;
}

/** Port: the facts of one conversation. Throws when Slack cannot answer. */
export interface AudienceSource {
  describe(channel: string): Promise<ConversationFacts>;
}

/** Why a conversation is outsider-readable. */
export type OutsiderReason =
  /** Slack Connect: another organisation is in it (or invited). */
  | 'shared'
  | 'guest'
  /** A member from outside the organisation (e.g. a group DM with an outside person). */
  | 'outsider'
  | 'unknown';

export type Audience = { outsiders: false } | { outsiders: true; reason: OutsiderReason };

/** Port: cached verdicts in the state store, named by channel (prefixed with OAuth: see `partition`). */
export interface AudienceCache {
  getAudience(verdict: string): Promise<Audience | undefined>;
  saveAudience(verdict: string, audience: Audience, ttlMs: number): Promise<void>;
  forgetAudience(verdict: string): Promise<void>;
}

const INSIDE: Audience = { outsiders: false };

/** DM channel ids start with `D`: a DM with the bot is never read by anyone else. */
export const isDirectMessage = (channel: string): boolean => channel.startsWith('D');

export function createConversationAudience(deps: {
  source: AudienceSource;
  cache: AudienceCache;
  /** Judges each member, guests included (see who-is-inside.ts). */
  inside: Pick<InsideCheck, 'check'>;
  /** The bot: a member of every conversation it reads, never judged as a reader. */
  bot: Pick<BotUser, 'botUserId'>;
  logger: Logger;
  /** How long a verdict is trusted when no event drops it. Default 15 minutes. */
  ttlMs?: number | undefined;
  /** Members judged at once (users.info is cached, but a first look at a big channel is not). Default 8. */
  concurrency?: number | undefined;
  /** With OAuth, the installation under way: who is an outsider in a shared channel depends on who asks. */
  partition?: (() => string | undefined) | undefined;
}) {
  const ttlMs = deps.ttlMs ?? 15 * 60_000;
  const concurrency = Math.max(1, deps.concurrency ?? 8);
  const { logger } = deps;

  /** The first member who is not inside decides; undefined when all are inside. */
  async function firstOutsider(members: string[]): Promise<OutsiderReason | undefined> {
    const queue = members.filter((member) => member !== deps.bot.botUserId);
    let found: OutsiderReason | undefined;
    const worker = async () => {
      for (let member = queue.shift(); member !== undefined && !found; member = queue.shift()) {
        const verdict = await deps.inside.check({ userId: member });
        if (verdict.inside) continue;
        found ??= verdictReason(verdict.reason);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
    return found;
  }

  async function judge(channel: string): Promise<Audience> {
    const facts = await deps.source.describe(channel);
    if (facts.isIm) return INSIDE;
    if (facts.externallyShared) return { outsiders: true, reason: 'shared' };
    // Bigger conversations are judged by external sharing alone (docs/using-it.md says so).
    if (facts.members === undefined) return INSIDE;
    const reason = await firstOutsider(facts.members);
    return reason ? { outsiders: true, reason } : INSIDE;
  }

  function verdictKey(channel: string): string {
    const view = deps.partition?.();
    return view === undefined ? channel : `${view}/${channel}`;
  }

  return {
    async of(channel: string): Promise<Audience> {
      if (isDirectMessage(channel)) return INSIDE;
      const key = verdictKey(channel);
      const cached = await deps.cache.getAudience(key);
      if (cached) return cached;
      let audience: Audience;
      try {
        audience = await judge(channel);
      } catch (error) {
        // Not kept: the next question asks again.
        logger.warn(
          { err: error, channel },
          'could not tell who reads the conversation; treating it as shared',
        );
        return { outsiders: true, reason: 'unknown' };
      }
      await deps.cache.saveAudience(key, audience, ttlMs);
      return audience;
    },
    /** A sharing or membership event: the next question asks Slack again. */
    async forget(channel: string): Promise<void> {
      await deps.cache.forgetAudience(verdictKey(channel));
    },
  };
}

/** The one question the turn starter and alert investigations ask. */
export type ConversationAudience = ReturnType<typeof createConversationAudience>;

/** A member the inside check refused: a guest, someone of another organisation, or unknown. */
function verdictReason(reason: string): OutsiderReason {
  if (reason === 'guest') return 'guest';
  if (reason === 'lookup-failed') return 'unknown';
  return 'outsider';
}
