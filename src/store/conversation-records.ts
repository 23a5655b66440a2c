import type { Keyv } from 'keyv';
import type { ConversationStore } from '../conversation/ports.js';
import type { AnswerRef, ThreadRecord, TurnRecord } from '../conversation/turn/turn-records.js';
import type { StoreKeys } from './keys.js';
import { upgradeThread, upgradeTurn } from './legacy-records.js';
import type { StorePrimitives } from './primitives.js';
import type { StoreTtls } from './ttls.js';

/** Threads, turns (listed in the in-flight set recovery reads), answers and ratings: records that expire. */
export function createConversationRecords(
  keyv: Keyv,
  inFlight: Pick<StorePrimitives, 'addInFlight' | 'removeInFlight' | 'inFlightIds' | 'pruneInFlight'>,
  ttls: StoreTtls,
  keys: StoreKeys,
): Omit<ConversationStore, keyof StorePrimitives> {
  return {
    async getThread(threadKey) {
      return upgradeThread(await keyv.get<ThreadRecord>(keys.thread(threadKey)));
    },
    async saveThread(thread) {
      // Each save restarts the TTL: a thread lives 30 days after its last activity.
      await keyv.set(keys.thread(thread.threadKey), thread, ttls.threadMs);
    },

    async saveTurn(turn) {
      // Record first, then the set: a listed id then (nearly) always has a record to resume from.
      await keyv.set(keys.turn(turn.turnId), turn, ttls.turnMs);
      await inFlight.addInFlight(turn.turnId);
    },
    async getTurn(turnId) {
      return upgradeTurn(await keyv.get<TurnRecord>(keys.turn(turnId)));
    },
    async deleteTurn(turnId) {
      // Set first: if we die in between, the orphan record just expires unlisted.
      await inFlight.removeInFlight(turnId);
      await keyv.delete(keys.turn(turnId));
    },
    async listInFlightTurnIds() {
      const ids = await inFlight.inFlightIds();
      if (ids.length === 0) return [];
      const records = await keyv.getMany<TurnRecord>(ids.map((id) => keys.turn(id)));
      const live: string[] = [];
      for (const [index, id] of ids.entries()) {
        if (records[index] !== undefined) live.push(id);
        // The record expired (turn TTL) without deleteTurn: drop the id so the set does not grow forever.
        else await inFlight.pruneInFlight(id);
      }
      return live;
    },

    async indexAnswer(channel, ts, ref) {
      await keyv.set(keys.answer(channel, ts), ref, ttls.answerMs);
    },
    lookupAnswer: (channel, ts) => keyv.get<AnswerRef>(keys.answer(channel, ts)),
    async saveRating(sessionId, score) {
      // As long as the answers it rates can be found.
      await keyv.set(keys.rating(sessionId), { score }, ttls.answerMs);
    },
    async getRating(sessionId) {
      return (await keyv.get<{ score: boolean }>(keys.rating(sessionId)))?.score;
    },
  };
}
