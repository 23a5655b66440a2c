import { createClient, type RedisClientType } from '@keyv/redis';
import { StoreConnectError } from './errors.js';

/** The client type @keyv/redis builds on (re-exported by it, so we declare no extra dependency). */
export type RedisClient = RedisClientType;

/** Reconnect backoff once connected: 100 ms doubling to 2 s, with jitter so replicas do not stampede. */
function reconnectDelay(retries: number): number {
  return Math.min(2 ** retries * 100, 2000) + Math.floor(Math.random() * 100);
}

/** `host:port` of a Redis URL, never its credentials. */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return '(unparseable REDIS_URL)';
  }
}

/**
 * Connects to Redis, failing with {@link StoreConnectError} when it refuses or does not answer
 * within `timeoutMs` — at start-up the process should exit with a clear message, not retry forever.
 * Once connected, the client reconnects on its own after a dropped connection.
 */
export async function connectRedis(url: string, timeoutMs: number): Promise<RedisClient> {
  const address = redisAddress(url);
  let ready = false;
  const client = createClient({
    url,
    // Commands fail at once while the connection is down rather than queueing without bound:
    // callers (poll scheduler, lease renewals) already retry with backoff.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      // `false` before the first success makes connect() reject instead of retrying forever.
      reconnectStrategy: (retries: number) => (ready ? reconnectDelay(retries) : false),
    },
  });
  // node-redis emits 'error' on every failed (re)connect; an EventEmitter without a listener would crash.
  client.on('error', () => {});

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // The race also bounds the handshake (HELLO/AUTH/SELECT), which the socket's connectTimeout does not.
    await Promise.race([client.connect(), timeout]);
    ready = true;
    return client;
  } catch (error) {
    closeQuietly(client);
    const detail = error instanceof Error ? error.message || error.name : String(error);
    throw new StoreConnectError(address, detail, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function closeQuietly(client: RedisClient): void {
  try {
    client.destroy();
  } catch {
    // Already closed: nothing to release.
  }
}

/**
 * Closes gracefully (waits for replies in flight), or forcibly after `graceMs` so a dead connection
 * cannot keep the process alive.
 */
export async function disconnectRedis(client: RedisClient, graceMs = 1000): Promise<void> {
  if (!client.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  try {
    const outcome = await Promise.race([client.close().then(() => 'closed' as const), grace]);
    if (outcome === 'timeout') closeQuietly(client);
  } catch {
    closeQuietly(client);
  } finally {
    clearTimeout(timer);
  }
}
