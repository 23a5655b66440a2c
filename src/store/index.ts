/** Conversation state: keyv records plus the atomic operations keyv lacks, in memory or in Redis. */
import type { Logger } from '../runtime/logger.js';
import type { StateStore } from './keyv-conversation-store.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';
import type { RedisTopology } from './redis-topology.js';

export { StoreClosedError, StoreConnectError } from './errors.js';
export type { InstallationRecordStore } from './installation-records.js';
export type { StateStore } from './keyv-conversation-store.js';
export { createMemoryStore } from './memory-store.js';
export { createRedisStore } from './redis-store.js';
export type { StoreTtls } from './ttls.js';

/** What {@link createStore} needs from the configuration. */
export interface StoreConfig {
  /** Set ⇒ Redis; unset ⇒ in-process memory. */
  redisUrl?: string | undefined;
  /** Sentinel or Cluster (or one server); wins over `redisUrl`. */
  redis?: RedisTopology | undefined;
  redisPrefix: string;
}

/** Picks the backend the configuration asks for: a Redis topology (or `REDIS_URL`) ⇒ Redis, else memory. */
export async function createStore(config: StoreConfig, logger?: Logger): Promise<StateStore> {
  const { redisUrl: url, redis: topology, redisPrefix: prefix } = config;
  if (!topology && !url) return createMemoryStore();
  return createRedisStore({ url, topology, prefix, logger });
}
