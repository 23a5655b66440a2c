import type { Keyv } from 'keyv';
import type { ChannelWatch, ChannelWatchStore, ClaimStore } from '../alerts/alert-ports.js';
import type { AccountSlotLeases } from '../budget/account-share.js';
import type { ConnectionRecordStore } from '../connections/connection-record.js';
import type { Audience, AudienceCache } from '../conversation/access/audience.js';
import type { AnswerChannel, AnswerChannelStore } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelBinding, ChannelBindingStore } from '../conversation/context/context-ports.js';
import type { ConversationStore } from '../conversation/ports.js';
import type { ScheduleStore } from '../conversation/schedules/schedules.js';
import type { AnswerRef, ThreadRecord, TurnRecord } from '../conversation/turn/turn-records.js';
import type { HomeStore } from '../home/home-ports.js';
import { type ChannelConnectionIndex, createConnectionRecords } from './connection-records.js';
import { StoreClosedError } from './errors.js';
import { createHomeRecords, homeKeys } from './home-records.js';
import { createInstallationRecords, type InstallationRecordStore } from './installation-records.js';
import { type StoreKeys, storeKeys } from './keys.js';
import { upgradeThread, upgradeTurn } from './legacy-records.js';
import { listedRecords } from './listed-records.js';
import type { HomePrimitives, StorePrimitives } from './primitives.js';
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

/** Threads, turns (and the in-flight set recovery reads), answers, ratings, audiences: records that expire. */
function createConversationRecords(
  keyv: Keyv,
  inFlight: Pick<StorePrimitives, 'addInFlight' | 'removeInFlight' | 'inFlightIds' | 'pruneInFlight'>,
  ttls: StoreTtls,
  keys: StoreKeys,
): Omit<ConversationStore, keyof StorePrimitives> & AudienceCache {
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
    // Who reads a conversation: kept briefly, dropped by any replica that hears it changed.
    getAudience: (channel) => keyv.get<Audience>(keys.audience(channel)),
    async saveAudience(channel, audience, ttlMs) {
      await keyv.set(keys.audience(channel), audience, ttlMs);
    },
    async forgetAudience(channel) {
      await keyv.delete(keys.audience(channel));
    },
  };
}

/** The set of answer channels' ids, for App Home (beside the bound and watched channels' sets). */
const ANSWER_CHANNELS_LISTED = 'answer-channel:listed';

/** What admins set on a channel (its agent, watch, answer-all), listed for App Home. */
function createChannelRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
  { noteChannelConnection }: ChannelConnectionIndex,
): ChannelBindingStore & ChannelWatchStore & AnswerChannelStore {
  const listed = listedRecords(keyv, homePrimitives);
  const bindings = listed<ChannelBinding>(keys.channelAgent, homeKeys.boundChannels);
  const watches = listed<ChannelWatch>(keys.channelWatch, homeKeys.watchedChannels);
  const answerChannels = listed<AnswerChannel>(keys.answerChannel, ANSWER_CHANNELS_LISTED);
  return {
    getChannelBinding: bindings.get,
    async saveChannelBinding(channel, binding) {
      await bindings.save(channel, binding);
      await noteChannelConnection(channel, binding.connection);
    },
    async deleteChannelBinding(channel) {
      await bindings.remove(channel);
      await noteChannelConnection(channel, undefined);
    },
    getChannelWatch: watches.get,
    saveChannelWatch: watches.save,
    deleteChannelWatch: watches.remove,
    getAnswerChannel: answerChannels.get,
    saveAnswerChannel: answerChannels.save,
    deleteAnswerChannel: answerChannels.remove,
    listAnswerChannels: answerChannels.list,
  };
}

/** The StateStore both backends share: records through keyv, the atomic parts through primitives. */
export function createKeyvConversationStore(
  kind: StateStore['kind'],
  keyv: Keyv,
  primitives: StorePrimitives,
  ttls: StoreTtls,
  homePrimitives: HomePrimitives,
  keys: StoreKeys = storeKeys,
): StateStore {
  let closed: Promise<void> | undefined;
  const { noteChannelConnection, ...connections } = createConnectionRecords(keyv);
  const { addInFlight, removeInFlight, inFlightIds, pruneInFlight, close, ...atomic } = primitives;
  const calls = guardAll<Omit<StateStore, 'kind' | 'close' | keyof HomeStore>>(() => closed !== undefined, {
    ...connections,
    ...createInstallationRecords(keyv),
    ...createScheduleRecords(keyv, homePrimitives, keys),
    ...atomic,
    ...createConversationRecords(keyv, primitives, ttls, keys),
    ...createChannelRecords(keyv, homePrimitives, keys, { noteChannelConnection }),
  });
  return {
    kind,
    ...createHomeRecords(homePrimitives),
    ...calls,
    close() {
      // Idempotent: shutdown paths may close twice (signal handler and test teardown).
      closed ??= close();
      return closed;
    },
  };
}

/** `calls`, refusing to run once closed: @keyv/redis would silently reconnect a closed client. */
function guardAll<T extends object>(isClosed: () => boolean, calls: T): T {
  const guarded = Object.entries(calls).map(([name, call]: [string, (...args: unknown[]) => unknown]) => [
    name,
    async (...args: unknown[]) => {
      if (isClosed()) throw new StoreClosedError();
      return call(...args);
    },
  ]);
  return Object.fromEntries(guarded) as T;
}
