import type { Logger } from '../../runtime/logger.js';
import type { ConversationMetrics } from '../ports.js';
import type { ThreadLocation } from '../thread-output-port.js';
import type { ConversationAudience, OutsiderReason } from './audience.js';

/** Where the answer goes where outsiders read (DESIGN "Who reads the answer", `OUTSIDER_AUDIENCE`). */
export type OutsiderPolicy = 'dm' | 'thread' | 'refuse';

/** Port: the asker's private thread, and the note left where they asked (src/slack/private-replies.ts). */
export interface PrivateReplies {
  /** Opens the DM with `asker` and posts the private thread's root, quoting and linking the question. */
  openThread(
    asker: string,
    origin: QuestionOrigin,
    question: string,
    reason: OutsiderReason,
  ): Promise<{ channel: string; ts: string }>;
  /** The one note in the original thread: the answer went to the asker privately, and why. */
  leaveNote(origin: ThreadLocation, asker: string, reason: OutsiderReason): Promise<void>;
}

/** Where a question was asked. */
export interface QuestionOrigin extends ThreadLocation {
  sourceTs: string;
}

/** What the policy decided for one question. */
export type Placement =
  | { kind: 'here' }
  | { kind: 'private'; reason: OutsiderReason }
  | { kind: 'refused'; reason: OutsiderReason };

/** The private thread a question moved to. */
export type PrivateThread = { moved: true; where: ThreadLocation } | { moved: false };

export function createAnswerPlacement(deps: {
  audience: Pick<ConversationAudience, 'of'>;
  policy: OutsiderPolicy;
  replies: PrivateReplies;
  logger: Logger;
  metrics: Pick<ConversationMetrics, 'outsiderReadable'>;
}) {
  const { logger } = deps;

  /** Asks who reads the conversation (no Slack call for a DM with the bot, none with `thread`). */
  async function decide(channel: string): Promise<Placement> {
    if (deps.policy === 'thread') return { kind: 'here' };
    const audience = await deps.audience.of(channel);
    if (!audience.outsiders) return { kind: 'here' };
    const kind = deps.policy === 'refuse' ? 'refused' : 'private';
    deps.metrics.outsiderReadable(kind, audience.reason);
    return { kind, reason: audience.reason };
  }

  /** Opens the private thread (else `moved: false`) and leaves the note (a failed one is only logged). */
  async function moveToPrivate(
    origin: QuestionOrigin,
    asker: string,
    question: string,
    reason: OutsiderReason,
  ): Promise<PrivateThread> {
    let root: { channel: string; ts: string };
    try {
      root = await deps.replies.openThread(asker, origin, question, reason);
    } catch (error) {
      logger.warn({ err: error, channel: origin.channel, userId: asker }, 'could not open a private thread');
      return { moved: false };
    }
    await deps.replies
      .leaveNote(origin, asker, reason)
      .catch((error: unknown) =>
        logger.warn({ err: error, channel: origin.channel }, 'note about the private answer not posted'),
      );
    logger.info(
      { channel: origin.channel, ts: origin.sourceTs, privateChannel: root.channel, reason },
      'answer moved to a direct message',
    );
    return { moved: true, where: { teamId: origin.teamId, channel: root.channel, threadTs: root.ts } };
  }

  return { decide, moveToPrivate };
}

export type AnswerPlacement = ReturnType<typeof createAnswerPlacement>;
