import type { Keyv } from 'keyv';
import type { ChannelWatchStore, ClaimStore } from '../alerts/alert-ports.js';
import type { AccountSlotLeases } from '../budget/account-share.js';
import type { ConnectionRecordStore } from '../connections/connection-record.js';
import type { AudienceCache } from '../conversation/access/audience.js';
import type { AnswerChannelStore } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelBindingStore } from '../conversation/context/context-ports.js';
import type { ConversationStore } from '../conversation/ports.js';
import type { ScheduleStore } from '../conversation/schedules/schedules.js';
import type { HomeStore } from '../home/home-ports.js';
import { createChannelRecords } from './channel-records.js';
import { createConnectionRecords } from './connection-records.js';
import { createConversationRecords } from './conversation-records.js';
import { StoreClosedError } from './errors.js';
import { createHomeRecords } from './home-records.js';
import { createInstallationRecords, type InstallationRecordStore } from './installation-records.js';
import { type StoreKeys, storeKeys } from './keys.js';
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
  const inFlight = { addInFlight, removeInFlight, inFlightIds, pruneInFlight };
  const calls = guardAll<Omit<StateStore, 'kind' | 'close' | keyof HomeStore>>(() => closed !== undefined, {
    ...connections,
    ...createInstallationRecords(keyv),
    ...createScheduleRecords(keyv, homePrimitives, keys),
    ...atomic,
    ...createConversationRecords(keyv, inFlight, ttls, keys),
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
