/** What the person is looking at (DESIGN "What the person is looking at"): a DM question's `app_context`. */
import type { Logger } from '../runtime/logger.js';
import { type ConversationAudience, isDirectMessage } from './access/audience.js';
import type { ContextRequest, PreparedTurn, TurnContext } from './context/turn-context.js';
import type { ThreadRecord } from './turn/turn-records.js';

/** A place in Slack a person views: a channel, or a thread in it (its root's ts). */
export interface ViewedPlace {
  channel: string;
  threadTs?: string | undefined;
}

/** Port: whether a person is a member of a channel. Throws when Slack cannot answer. */
export interface ChannelMembership {
  isMember(channel: string, userId: string): Promise<boolean>;
}

/** A turn context that honours `viewing` on a DM question that starts a new session. */
export function createViewedContext(deps: {
  /** The ordinary preparation (turn-context.ts), asked about the viewed place instead of the DM. */
  context: Pick<TurnContext, 'prepare'>;
  audience: Pick<ConversationAudience, 'of'>;
  membership: ChannelMembership;
  logger: Logger;
}): Pick<TurnContext, 'prepare'> {
  const { context, audience, membership, logger } = deps;

  async function prepare(
    request: ContextRequest & { viewing?: ViewedPlace | undefined },
    thread: ThreadRecord | undefined,
  ): Promise<PreparedTurn> {
    const { viewing } = request;
    const applies =
      viewing !== undefined &&
      thread?.sessionId === undefined &&
      isDirectMessage(request.channel) &&
      !isDirectMessage(viewing.channel);
    if (!applies) return context.prepare(request, thread);
    const fields = { channel: request.channel, ts: request.sourceTs, viewing: viewing.channel };
    /** No context from the viewed place, and why: the question is prepared where it was asked. */
    const asHere = (why: string, extra: object = {}) => {
      logger.info({ ...fields, ...extra }, why);
      return context.prepare(request, thread);
    };
    const readers = await audience.of(viewing.channel);
    if (readers.outsiders)
      return asHere('viewed place is outsider-readable; no context from it', { reason: readers.reason });
    const member = await membership.isMember(viewing.channel, request.userId).catch((error: unknown) => {
      logger.warn({ ...fields, err: error }, 'could not tell whether the asker is in the viewed channel');
      return false;
    });
    if (!member) return asHere('asker is not a member of the viewed channel; no context from it');
    // As if asked there: the viewed thread (everything before this question) and its channel.
    const there = { ...request, channel: viewing.channel, threadTs: viewing.threadTs ?? request.sourceTs };
    const prepared = await context.prepare(there, undefined);
    if (prepared.kind === 'ready' && prepared.unreadable)
      return asHere('viewed thread cannot be read; no context from it');
    logger.info(
      { ...fields, thread: viewing.threadTs !== undefined },
      'question prepared as asked where viewed',
    );
    return prepared;
  }

  return { prepare };
}
