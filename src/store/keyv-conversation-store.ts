import type { Keyv } from 'keyv';
import type { Audience, AudienceCache } from '../conversation/audience.js';
import type { ChannelBinding, ChannelBindingStore } from '../conversation/context-ports.js';
import type { AnswerRef, ConversationStore, ThreadRecord, TurnRecord } from '../conversation/ports.js';
import { StoreClosedError } from './errors.js';
import { createInstallationRecords, type InstallationRecordStore } from './installation-records.js';
import { storeKeys } from './keys.js';
import { upgradeThread, upgradeTurn } from './legacy-records.js';
import type { StorePrimitives } from './primitives.js';
import type { StoreTtls } from './ttls.js';

/** A `ConversationStore` and the channel bindings, plus what operators need around it. */
export interface StateStore
  extends ConversationStore,
    ChannelBindingStore,
    AudienceCache,
    InstallationRecordStore {
  /** Which backend holds the state (for start-up logs and health). */
  readonly kind: 'memory' | 'redis';
  /** Resolves when the backend answers; rejects otherwise (for `/healthz`). */
  ping(): Promise<void>;
}

/**
 * The `ConversationStore` both backends share: records go through keyv (JSON, with TTLs), the
 * atomic parts through the backend's primitives.
 */
export function createKeyvConversationStore(
  kind: StateStore['kind'],
  keyv: Keyv,
  primitives: StorePrimitives,
  ttls: StoreTtls,
): StateStore {
  let closed: Promise<void> | undefined;
  // After close, @keyv/redis would silently reconnect a closed client on the next call (and keep the
  // process alive): refuse instead.
  const ensureOpen = () => {
    if (closed) throw new StoreClosedError();
  };

  return {
    kind,
    ...createInstallationRecords(keyv, ensureOpen),

    async getThread(threadKey) {
      ensureOpen();
      return upgradeThread(await keyv.get<ThreadRecord>(storeKeys.thread(threadKey)));
    },
    async saveThread(thread) {
      ensureOpen();
      // Each save restarts the TTL: a thread lives 30 days after its last activity.
      await keyv.set(storeKeys.thread(thread.threadKey), thread, ttls.threadMs);
    },

    async saveTurn(turn) {
      ensureOpen();
      // Record first, then the set: a listed id then (nearly) always has a record to resume from.
      await keyv.set(storeKeys.turn(turn.turnId), turn, ttls.turnMs);
      await primitives.addInFlight(turn.turnId);
    },
    async getTurn(turnId) {
      ensureOpen();
      return upgradeTurn(await keyv.get<TurnRecord>(storeKeys.turn(turnId)));
    },
    async deleteTurn(turnId) {
      ensureOpen();
      // Set first: if we die in between, the orphan record just expires unlisted.
      await primitives.removeInFlight(turnId);
      await keyv.delete(storeKeys.turn(turnId));
    },
    async listInFlightTurnIds() {
      ensureOpen();
      const ids = await primitives.inFlightIds();
      if (ids.length === 0) return [];
      const records = await keyv.getMany<TurnRecord>(ids.map((id) => storeKeys.turn(id)));
      const live: string[] = [];
      for (const [index, id] of ids.entries()) {
        if (records[index] !== undefined) live.push(id);
        // The record expired (turn TTL) without deleteTurn: drop the id so the set does not grow forever.
        else await primitives.pruneInFlight(id);
      }
      return live;
    },

    async indexAnswer(channel, ts, ref) {
      ensureOpen();
      await keyv.set(storeKeys.answer(channel, ts), ref, ttls.answerMs);
    },
    async lookupAnswer(channel, ts) {
      ensureOpen();
      return keyv.get<AnswerRef>(storeKeys.answer(channel, ts));
    },

    // Channel bindings never expire: an admin set them, an admin resets them.
    async getChannelBinding(channel) {
      ensureOpen();
      return keyv.get<ChannelBinding>(storeKeys.channelAgent(channel));
    },
    async saveChannelBinding(channel, binding) {
      ensureOpen();
      await keyv.set(storeKeys.channelAgent(channel), binding);
    },
    async deleteChannelBinding(channel) {
      ensureOpen();
      await keyv.delete(storeKeys.channelAgent(channel));
    },
    // Who reads a conversation: kept briefly, dropped by any replica that hears it changed.
    async getAudience(channel) {
      ensureOpen();
      return keyv.get<Audience>(storeKeys.audience(channel));
    },
    async saveAudience(channel, audience, ttlMs) {
      ensureOpen();
      await keyv.set(storeKeys.audience(channel), audience, ttlMs);
    },
    async forgetAudience(channel) {
      ensureOpen();
      await keyv.delete(storeKeys.audience(channel));
    },
    async saveRating(sessionId, score) {
      ensureOpen();
      // As long as the answers it rates can be found.
      await keyv.set(storeKeys.rating(sessionId), { score }, ttls.answerMs);
    },
    async getRating(sessionId) {
      ensureOpen();
      return (await keyv.get<{ score: boolean }>(storeKeys.rating(sessionId)))?.score;
    },

    async tryLock(name, owner, ttlMs) {
      ensureOpen();
      return primitives.tryLock(name, owner, ttlMs);
    },
    async renewLock(name, owner, ttlMs) {
      ensureOpen();
      return primitives.renewLock(name, owner, ttlMs);
    },
    async unlock(name, owner) {
      ensureOpen();
      await primitives.unlock(name, owner);
    },
    async lockOwner(name) {
      ensureOpen();
      return primitives.lockOwner(name);
    },

    async takeAllowance(name, use) {
      ensureOpen();
      return primitives.takeAllowance(name, use);
    },
    async returnAllowance(name, id) {
      ensureOpen();
      await primitives.returnAllowance(name, id);
    },

    async ping() {
      ensureOpen();
      await primitives.ping();
    },
    close() {
      // Idempotent: shutdown paths may close twice (signal handler and test teardown).
      closed ??= primitives.close();
      return closed;
    },
  };
}
