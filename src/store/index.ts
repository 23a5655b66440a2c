/**
 * Conversation state: keyv records plus the atomic operations keyv lacks, in memory or in Redis.
 * The only folder that imports keyv.
 */
import type { Logger } from '../conversation/ports.js';
import type { StateStore } from './keyv-conversation-store.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';

export { StoreClosedError, StoreConnectError, StoreErrorCode } from './errors.js';
export type { InstallationRecordStore, SealedInstallation } from './installation-records.js';
export type { StateStore } from './keyv-conversation-store.js';
export { createMemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { createRedisStore, type RedisStoreOptions } from './redis-store.js';
export { DEFAULT_TTLS, type StoreTtls } from './ttls.js';

/** What {@link createStore} needs from the configuration. */
export interface StoreConfig {
  /** Set ⇒ Redis; unset ⇒ in-process memory. */
  redisUrl?: string | undefined;
  redisPrefix: string;
  redisConnectTimeoutMs?: number | undefined;
}

/** Picks the backend the configuration asks for: `REDIS_URL` set ⇒ Redis, else memory. */
export async function createStore(config: StoreConfig, logger?: Logger): Promise<StateStore> {
  if (!config.redisUrl) return createMemoryStore();
  return createRedisStore({
    url: config.redisUrl,
    prefix: config.redisPrefix,
    ...(config.redisConnectTimeoutMs === undefined ? {} : { connectTimeoutMs: config.redisConnectTimeoutMs }),
    ...(logger ? { logger } : {}),
  });
}
