import type { Keyv } from 'keyv';
import type { ChannelWatch, ChannelWatchStore, ClaimStore } from '../alerts/alert-ports.js';
import type { ConnectionRecordStore } from '../connections/connection-record.js';
import type { Audience, AudienceCache } from '../conversation/access/audience.js';
import type { AnswerChannelStore } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelBinding, ChannelBindingStore } from '../conversation/context/context-ports.js';
import type { ConversationStore } from '../conversation/ports.js';
import type { ScheduleStore } from '../conversation/schedules/schedules.js';
import type { AnswerRef, ThreadRecord, TurnRecord } from '../conversation/turn/turn-records.js';
import type { HomeStore } from '../home/home-ports.js';
import { createAnswerChannelRecords } from './answer-channel-records.js';
import { createConnectionRecords } from './connection-records.js';
import { StoreClosedError } from './errors.js';
import type { HomePrimitives } from './home-primitives.js';
import { createHomeRecords, homeKeys } from './home-records.js';
import { createInstallationRecords, type InstallationRecordStore } from './installation-records.js';
import { type StoreKeys, storeKeys } from './keys.js';
import { upgradeThread, upgradeTurn } from './legacy-records.js';
import type { AccountSlotLeases, StorePrimitives } from './primitives.js';
import { createScheduleRecords } from './schedule-records.js';
import type { StoreTtls } from './ttls.js';

/** A `ConversationStore` and the channel bindings, plus what operators need around it. */
export interface StateStore
  extends ConversationStore,
    ChannelBindingStore,
    AudienceCache,
    HomeStore,
    ClaimStore,
    ChannelWatchStore,
    AnswerChannelStore,
    ScheduleStore,
    AccountSlotLeases,
    ConnectionRecordStore,
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
  homePrimitives: HomePrimitives,
  keys: StoreKeys = storeKeys,
): StateStore {
  let closed: Promise<void> | undefined;
  // After close, @keyv/redis would silently reconnect a closed client on the next call (and keep the
  // process alive): refuse instead.
  const ensureOpen = () => {
    if (closed) throw new StoreClosedError();
  };
  const connections = createConnectionRecords(keyv, ensureOpen);

  const home = createHomeRecords(homePrimitives);
  return {
    kind,
    // App Home's records (home-records.ts): recent threads, weekly tallies, agents seen.
    ...home,
    getConnection: connections.getConnection,
    listConnections: connections.listConnections,
    saveConnection: connections.saveConnection,
    deleteConnection: connections.deleteConnection,
    channelsUsing: connections.channelsUsing,
    ...createInstallationRecords(keyv, ensureOpen),
    // Answer channels (`/agent channel answer-all`): never expire, like watched channels.
    ...createAnswerChannelRecords(keyv, homePrimitives, keys, ensureOpen),
    // Scheduled questions (`/agent schedule`): never expire, an admin removes them.
    ...createScheduleRecords(keyv, homePrimitives, keys, ensureOpen),

    async getThread(threadKey) {
      ensureOpen();
      return upgradeThread(await keyv.get<ThreadRecord>(keys.thread(threadKey)));
    },
    async saveThread(thread) {
      ensureOpen();
      // Each save restarts the TTL: a thread lives 30 days after its last activity.
      await keyv.set(keys.thread(thread.threadKey), thread, ttls.threadMs);
    },

    async saveTurn(turn) {
      ensureOpen();
      // Record first, then the set: a listed id then (nearly) always has a record to resume from.
      await keyv.set(keys.turn(turn.turnId), turn, ttls.turnMs);
      await primitives.addInFlight(turn.turnId);
    },
    async getTurn(turnId) {
      ensureOpen();
      return upgradeTurn(await keyv.get<TurnRecord>(keys.turn(turnId)));
    },
    async deleteTurn(turnId) {
      ensureOpen();
      // Set first: if we die in between, the orphan record just expires unlisted.
      await primitives.removeInFlight(turnId);
      await keyv.delete(keys.turn(turnId));
    },
    async listInFlightTurnIds() {
      ensureOpen();
      const ids = await primitives.inFlightIds();
      if (ids.length === 0) return [];
      const records = await keyv.getMany<TurnRecord>(ids.map((id) => keys.turn(id)));
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
      await keyv.set(keys.answer(channel, ts), ref, ttls.answerMs);
    },
    async lookupAnswer(channel, ts) {
      ensureOpen();
      return keyv.get<AnswerRef>(keys.answer(channel, ts));
    },

    // Channel bindings never expire: an admin set them, an admin resets them.
    async getChannelBinding(channel) {
      ensureOpen();
      return keyv.get<ChannelBinding>(keys.channelAgent(channel));
    },
    async saveChannelBinding(channel, binding) {
      ensureOpen();
      await keyv.set(keys.channelAgent(channel), binding);
      // Listed on the admins' App Home.
      await homePrimitives.addMember(homeKeys.boundChannels, channel);
      await connections.noteChannelConnection(channel, binding.connection);
    },
    async deleteChannelBinding(channel) {
      ensureOpen();
      await keyv.delete(keys.channelAgent(channel));
      await homePrimitives.removeMember(homeKeys.boundChannels, channel);
      await connections.noteChannelConnection(channel, undefined);
    },
    // Watched channels (alert investigations) never expire either.
    async getChannelWatch(channel) {
      ensureOpen();
      return keyv.get<ChannelWatch>(keys.channelWatch(channel));
    },
    async saveChannelWatch(channel, watch) {
      ensureOpen();
      await keyv.set(keys.channelWatch(channel), watch);
      // Listed on the admins' App Home.
      await homePrimitives.addMember(homeKeys.watchedChannels, channel);
    },
    async deleteChannelWatch(channel) {
      ensureOpen();
      await keyv.delete(keys.channelWatch(channel));
      await homePrimitives.removeMember(homeKeys.watchedChannels, channel);
    },
    // Who reads a conversation: kept briefly, dropped by any replica that hears it changed.
    async getAudience(channel) {
      ensureOpen();
      return keyv.get<Audience>(keys.audience(channel));
    },
    async saveAudience(channel, audience, ttlMs) {
      ensureOpen();
      await keyv.set(keys.audience(channel), audience, ttlMs);
    },
    async forgetAudience(channel) {
      ensureOpen();
      await keyv.delete(keys.audience(channel));
    },
    async saveRating(sessionId, score) {
      ensureOpen();
      // As long as the answers it rates can be found.
      await keyv.set(keys.rating(sessionId), { score }, ttls.answerMs);
    },
    async getRating(sessionId) {
      ensureOpen();
      return (await keyv.get<{ score: boolean }>(keys.rating(sessionId)))?.score;
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

    async claim(name, value, ttlMs) {
      ensureOpen();
      return primitives.claim(name, value, ttlMs);
    },
    async readClaim(name) {
      ensureOpen();
      return primitives.readClaim(name);
    },
    async settleClaim(name, from, to) {
      ensureOpen();
      return primitives.settleClaim(name, from, to);
    },
    async releaseClaim(name, value) {
      ensureOpen();
      await primitives.releaseClaim(name, value);
    },
    async leaseAccountSlots(account, holder, request) {
      ensureOpen();
      return primitives.leaseAccountSlots(account, holder, request);
    },
    async releaseAccountSlots(account, holder) {
      ensureOpen();
      await primitives.releaseAccountSlots(account, holder);
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
