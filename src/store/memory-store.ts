import { Keyv } from 'keyv';
import { ExpiringMap } from './expiring-map.js';
import { storeKeys } from './keys.js';
import { createKeyvConversationStore, type StateStore } from './keyv-conversation-store.js';
import { createMemoryHomePrimitives, createMemoryPrimitives } from './memory-primitives.js';
import { resolveTtls, type StoreTtls } from './ttls.js';

/** Options for {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Milliseconds since the epoch; inject to test expiry. @default Date.now */
  clock?: () => number;
  /** Record lifetimes. @default DEFAULT_TTLS */
  ttl?: Partial<StoreTtls>;
}

/**
 * State in this process only: fine for one replica and for trying the bot out; lost on restart.
 * Records still go through keyv, over a map that expires entries against `clock`.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): StateStore {
  const clock = options.clock ?? Date.now;
  const records = new ExpiringMap<unknown>(clock);
  // No key prefix: the map belongs to this store alone. Records are stored as JSON (a copy, as
  // Redis would hold) written by the native JSON.stringify: keyv's default serializer builds the
  // text by concatenation, which V8 keeps as a tree of string pieces — about 5 KB a tracked turn
  // here, where nothing ever flattens it — and is several times slower.
  const keyv = new Keyv({
    store: records,
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: (data) => JSON.stringify(data),
    deserialize: (text) => JSON.parse(text),
  });
  const primitives = createMemoryPrimitives(clock, (turnId) => records.has(storeKeys.turn(turnId)));
  return createKeyvConversationStore(
    'memory',
    keyv,
    primitives,
    resolveTtls(options.ttl),
    createMemoryHomePrimitives(clock),
  );
}
