import { Keyv } from 'keyv';
import { ExpiringMap } from './expiring-map.js';
import { storeKeys } from './keys.js';
import { createKeyvConversationStore, type StateStore } from './keyv-conversation-store.js';
import { createMemoryHomePrimitives, createMemoryPrimitives } from './memory-primitives.js';
import { resolveTtls, type StoreTtls } from './ttls.js';

/** State in this process only (one replica, trying the bot out), through keyv over an ExpiringMap. */
export function createMemoryStore(
  options: {
    /** Milliseconds since the epoch; inject to test expiry. @default Date.now */
    clock?: () => number;
    /** Record lifetimes. @default DEFAULT_TTLS */
    ttl?: Partial<StoreTtls>;
  } = {},
): StateStore {
  const clock = options.clock ?? Date.now;
  const records = new ExpiringMap<unknown>(clock);
  // Records are JSON copies, as Redis holds them, by the native JSON.stringify: keyv's default
  // serializer concatenates (a V8 string tree, ~5 KB a tracked turn, never flattened) and is slower.
  const keyv = new Keyv({
    store: records,
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: (data) => JSON.stringify(data),
    deserialize: (text) => JSON.parse(text),
  });
  const primitives = createMemoryPrimitives(clock, (turnId) => records.has(storeKeys.turn(turnId)));
  const ttls = resolveTtls(options.ttl);
  return createKeyvConversationStore('memory', keyv, primitives, ttls, createMemoryHomePrimitives(clock));
}
