import type { Clock } from '../../runtime/clock.js';
import type { ConversationStore } from '../ports.js';
import type { AnswerRef } from '../turn/turn-records.js';

/**
 * Finds the run behind a rated answer message, including in the moment after Slack showed a part
 * and before delivery wrote that part's index entry (answer-post.ts indexes each part as soon
 * as Slack accepts it, but the person can be faster than the store write).
 *
 * Why these three ways, and why none can pick the wrong run:
 * - the index (message ts → run) answers whenever it has the entry;
 * - a click carries the answer's turn id (in the button value, which Slack signs and we wrote), so
 *   a miss falls back to that turn's record, accepted only when it is in the clicked channel and
 *   its run has started. The record lives until the answer is indexed (delivery indexes, then
 *   deletes the record), so after a miss on both the index is read once more: a message that is
 *   in neither is genuinely unknown;
 * - a reaction carries only channel and ts, so for a message the bot wrote the index is read again
 *   a few times over a short, bounded wait; a reaction on anyone else's message is not waited for.
 */
export interface AnswerLookupDeps {
  store: ConversationStore;
  /** Without a clock a reaction is not waited for. */
  clock?: Clock | undefined;
  /** How long a reaction on a bot message waits for its index entry. Default 2,000 ms. */
  reactionWaitMs?: number | undefined;
}

/** Between two reads of the index while a reaction waits. */
const REACTION_RETRY_MS = 250;

export function createAnswerLookup(deps: AnswerLookupDeps) {
  const { store, clock } = deps;
  const reactionWaitMs = deps.reactionWaitMs ?? 2_000;

  /** By the index alone (the comment form, long after the click). */
  function byMessage(channel: string, ts: string): Promise<AnswerRef | undefined> {
    return store.lookupAnswer(channel, ts);
  }

  /** A click on an answer's buttons; `turnId` from the button value or the message metadata. */
  async function byClick(channel: string, ts: string, turnId?: string): Promise<AnswerRef | undefined> {
    const indexed = await store.lookupAnswer(channel, ts);
    if (indexed || !turnId) return indexed;
    const turn = await store.getTurn(turnId);
    if (turn?.sessionId && turn.channel === channel) {
      return { threadKey: turn.threadKey, agentId: turn.agentId, sessionId: turn.sessionId, turnId };
    }
    // Delivered (indexed, then its record deleted) between the two reads above.
    return store.lookupAnswer(channel, ts);
  }

  /** A reaction; `onBotMessage`: the reacted message is the bot's (`item_user`). */
  async function byReaction(
    channel: string,
    ts: string,
    onBotMessage: boolean,
  ): Promise<AnswerRef | undefined> {
    const indexed = await store.lookupAnswer(channel, ts);
    if (indexed || !onBotMessage || !clock) return indexed;
    for (let waited = 0; waited < reactionWaitMs; waited += REACTION_RETRY_MS) {
      await clock.sleep(REACTION_RETRY_MS);
      const found = await store.lookupAnswer(channel, ts);
      if (found) return found;
    }
    return undefined;
  }

  return { byMessage, byClick, byReaction };
}

export type AnswerLookup = ReturnType<typeof createAnswerLookup>;
