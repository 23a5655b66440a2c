import { createKeyv } from '@keyv/redis';
import type { Logger } from '../runtime/logger.js';
import { createKeyvConversationStore, type StateStore } from './keyv-conversation-store.js';
import { connectRedis, disconnectRedis } from './redis-connection.js';
import { createRedisHomePrimitives } from './redis-home-primitives.js';
import { createRedisPrimitives } from './redis-primitives.js';
import { resolveTtls, type StoreTtls } from './ttls.js';

/** Options for {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]`. */
  url: string;
  /** Namespace of every key (`prefix::…`); replicas sharing state use the same prefix. */
  prefix: string;
  /** Record lifetimes. @default DEFAULT_TTLS */
  ttl?: Partial<StoreTtls>;
  /** How long to wait for Redis at start-up before failing. @default 5000 */
  connectTimeoutMs?: number;
  /** Told about connection errors after start-up (the client keeps reconnecting meanwhile). */
  logger?: Logger;
}

/**
 * State in Redis, shared by every replica on the same `prefix`. Connects before resolving and
 * rejects with `StoreConnectError` when Redis does not answer within `connectTimeoutMs`.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<StateStore> {
  if (!options.prefix) throw new Error('createRedisStore: prefix must not be empty');
  const ttls = resolveTtls(options.ttl);
  const client = await connectRedis(options.url, options.connectTimeoutMs ?? 5000);
  if (options.logger) {
    const logger = options.logger;
    client.on('error', (error: unknown) => {
      logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'redis connection error');
    });
  }
  // Errors must reach callers: by default keyv turns a failed read into `undefined` ("no such thread").
  const keyv = createKeyv(client, { namespace: options.prefix, throwOnErrors: true });
  const primitives = createRedisPrimitives(client, options.prefix);
  return createKeyvConversationStore(
    'redis',
    keyv,
    { ...primitives, close: () => disconnectRedis(client) },
    ttls,
    createRedisHomePrimitives(client, options.prefix),
  );
}
