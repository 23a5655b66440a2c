import { createKeyv, type RedisClientType } from '@keyv/redis';
import type { Logger } from '../runtime/logger.js';
import { clusterKeys, storeKeys } from './keys.js';
import { createKeyvConversationStore, type StateStore } from './keyv-conversation-store.js';
import { connectTopology } from './redis-connection.js';
import { createRedisHomePrimitives, createRedisPrimitives } from './redis-primitives.js';
import type { RedisTopology } from './redis-topology.js';
import { resolveTtls, type StoreTtls } from './ttls.js';

/** State in Redis, shared by every replica on `prefix`; rejects with `StoreConnectError` if unreachable. */
export async function createRedisStore(options: {
  /** `redis[s]://[user:password@]host:port[/db]`; ignored when `topology` is given. */
  url?: string;
  /** One server by URL, a primary behind Sentinel, or a cluster. */
  topology?: RedisTopology;
  /** Namespace of every key (`prefix::…`); replicas sharing state use the same prefix. */
  prefix: string;
  /** Record lifetimes. @default DEFAULT_TTLS */
  ttl?: Partial<StoreTtls>;
  /** How long to wait for Redis at start-up before failing. @default 5000 */
  connectTimeoutMs?: number;
  /** Told about connection errors after start-up (the client keeps reconnecting meanwhile). */
  logger?: Logger;
}): Promise<StateStore> {
  if (!options.prefix) throw new Error('createRedisStore: prefix must not be empty');
  const ttls = resolveTtls(options.ttl);
  const topology =
    options.topology ?? (options.url ? { kind: 'single' as const, url: options.url } : undefined);
  if (!topology) throw new Error('createRedisStore: url or topology is required');
  const connection = await connectTopology(topology, options.connectTimeoutMs ?? 5000);
  if (options.logger) {
    const logger = options.logger;
    connection.onError((error: unknown) => {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'redis connection error');
    });
  }
  const keys = topology.kind === 'cluster' ? clusterKeys : storeKeys;
  // KeyvRedis takes a client, a Sentinel pool or a cluster; only createKeyv's type names the client.
  // throwOnErrors: by default keyv turns a failed read into `undefined` ("no such thread").
  const handle = connection.handle as RedisClientType;
  const keyv = createKeyv(handle, { namespace: options.prefix, throwOnErrors: true });
  const primitives = createRedisPrimitives(connection.commands, options.prefix, keys);
  const health = { ping: () => connection.ping(), close: () => connection.close() };
  const home = createRedisHomePrimitives(connection.commands, options.prefix);
  return createKeyvConversationStore('redis', keyv, { ...primitives, ...health }, ttls, home, keys);
}
