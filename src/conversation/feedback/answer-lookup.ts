import type { Clock } from '../../runtime/clock.js';
import type { ConversationStore } from '../ports.js';
import { answerRef } from '../turn/turn-in-flight.js';
import type { AnswerRef } from '../turn/turn-records.js';

/** Between two reads of the index while a reaction waits. */
const REACTION_RETRY_MS = 250;

/**
 * Finds the run behind a rated answer, even before delivery indexed it: a click falls back to its turn's
 * record, then the index once more; a reaction on the bot's message waits a bounded while.
 */
export function createAnswerLookup(deps: {
  store: ConversationStore;
  /** Without a clock a reaction is not waited for. */
  clock?: Clock | undefined;
  /** How long a reaction on a bot message waits for its index entry. Default 2,000 ms. */
  reactionWaitMs?: number | undefined;
}) {
  const { store, clock } = deps;
  const reactionWaitMs = deps.reactionWaitMs ?? 2_000;

  /** A click on an answer's buttons; `turnId` from the button value or the message metadata. */
  async function byClick(channel: string, ts: string, turnId?: string): Promise<AnswerRef | undefined> {
    const indexed = await store.lookupAnswer(channel, ts);
    if (indexed || !turnId) return indexed;
    const turn = await store.getTurn(turnId);
    // As delivery indexes it, connection included: the rating goes to the service the answer came from.
    if (turn?.sessionId && turn.channel === channel) return answerRef(turn);
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

  return { byClick, byReaction };
}
