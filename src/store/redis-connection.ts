import {
  createClient,
  createCluster,
  createSentinel,
  type RedisClientType,
  type RedisClusterType,
  type RedisSentinelType,
} from '@keyv/redis';
import { StoreConnectError } from './errors.js';
import {
  describeTopology,
  type RedisNodeAuth,
  type RedisTopology,
  TOPOLOGY_VARIABLES,
} from './redis-topology.js';
import { CREDENTIALS_REFUSED, diagnose } from './topology-diagnosis.js';

type RedisHandle = RedisClientType | RedisClusterType | RedisSentinelType;

/** The commands the store sends beyond keyv's; a client, a Sentinel pool and a cluster all answer them. */
export type RedisCommands = Pick<
  RedisClientType,
  'eval' | 'get' | 'exists' | 'sAdd' | 'sRem' | 'sMembers' | 'sCard' | 'hGetAll' | 'zRem'
>;

/** Runs `script` on its one key (one slot in a cluster), with `args` as ARGV. */
export const runScript = (client: RedisCommands, script: string, key: string, args: string[]) =>
  client.eval(script, { keys: [key], arguments: args });

/** Reconnect backoff once connected: 100 ms doubling to 2 s, with jitter so replicas do not stampede. */
const reconnectDelay = (retries: number) =>
  Math.min(2 ** retries * 100, 2000) + Math.floor(Math.random() * 100);

/** How often the Sentinel pool asks the sentinels for the primary besides their switch notices. */
const SENTINEL_SCAN_MS = 2_000;

/** Socket and auth options every node client gets. `ready()` says whether start-up succeeded. */
function nodeOptions(auth: RedisNodeAuth, timeoutMs: number, ready: () => boolean) {
  return {
    ...(auth.username === undefined ? {} : { username: auth.username }),
    ...(auth.password === undefined ? {} : { password: auth.password }),
    // Fail at once while disconnected rather than queue without bound: callers retry with backoff.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      ...(auth.tls ? { tls: true as const } : {}),
      // `false` before the first success makes connect() reject instead of retrying forever.
      reconnectStrategy: (retries: number) => (ready() ? reconnectDelay(retries) : false),
    },
  };
}

function build(topology: RedisTopology, timeoutMs: number, ready: () => boolean): RedisHandle {
  if (topology.kind === 'single') {
    const tls = topology.url.toLowerCase().startsWith('rediss:');
    return createClient({ url: topology.url, ...nodeOptions({ tls }, timeoutMs, ready) });
  }
  if (topology.kind === 'sentinel') {
    const sentinelAuth = { tls: topology.auth.tls, password: topology.sentinelPassword };
    return createSentinel({
      name: topology.name,
      sentinelRootNodes: topology.sentinels,
      nodeClientOptions: nodeOptions(topology.auth, timeoutMs, ready),
      sentinelClientOptions: nodeOptions(sentinelAuth, timeoutMs, ready),
      scanInterval: SENTINEL_SCAN_MS,
      passthroughClientErrorEvents: true,
    }) as unknown as RedisHandle;
  }
  return createCluster({
    rootNodes: topology.nodes.map((node) => ({ socket: node })),
    defaults: nodeOptions(topology.auth, timeoutMs, ready),
  }) as unknown as RedisHandle;
}

const isCluster = (handle: RedisHandle): handle is RedisClusterType => 'masters' in handle;

/** PING on one node, or every primary of a cluster (a cluster missing one serves only part of the keys). */
async function pingAll(handle: RedisHandle): Promise<void> {
  const clients = isCluster(handle)
    ? await Promise.all(handle.masters.map((node) => handle.nodeClient(node)))
    : [handle as RedisClientType];
  await Promise.all(clients.map((client) => client.ping()));
}

function destroyQuietly(handle: RedisHandle): void {
  try {
    handle.destroy();
  } catch {
    // Already closed: nothing to release.
  }
}

/** Every credential the topology carries, to be kept out of messages. */
function secretsOf(topology: RedisTopology): string[] {
  const secrets =
    topology.kind === 'single'
      ? [URL.canParse(topology.url) ? decodeURIComponent(new URL(topology.url).password) : '']
      : [topology.auth.password, topology.kind === 'sentinel' ? topology.sentinelPassword : undefined];
  return secrets.filter((secret): secret is string => Boolean(secret));
}

/** The message of a start-up failure: the variable to fix, where, why — never a credential. */
function startupError(topology: RedisTopology, error: unknown, named?: string): StoreConnectError {
  const detail = error instanceof Error ? error.message || error.name : String(error);
  // A URL carries its own password; the nodes behind Sentinel or in a cluster take REDIS_PASSWORD.
  const passwordRefused = CREDENTIALS_REFUSED.test(detail) && topology.kind !== 'single';
  const variable = named ?? (passwordRefused ? 'REDIS_PASSWORD' : TOPOLOGY_VARIABLES[topology.kind]);
  const safe = secretsOf(topology).reduce((text, secret) => text.split(secret).join('***'), detail);
  return new StoreConnectError(describeTopology(topology), safe, { cause: error, variable });
}

/**
 * Connects, or fails within `timeoutMs` with {@link StoreConnectError} naming the variable to fix:
 * start-up exits with a clear message, not retry forever. Once connected, node-redis reconnects.
 */
export async function connectTopology(topology: RedisTopology, timeoutMs: number) {
  let ready = false;
  const handle = build(topology, timeoutMs, () => ready);
  // node-redis emits 'error' on every failed (re)connect; an EventEmitter without a listener would crash.
  handle.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // The race also bounds the handshake (HELLO/AUTH/SELECT), which the socket's connectTimeout does not.
    await Promise.race([handle.connect().then(() => pingAll(handle)), timeout]);
    ready = true;
  } catch (error) {
    destroyQuietly(handle);
    const found = await diagnose(topology, timeoutMs);
    throw startupError(topology, found ? new Error(found.detail, { cause: error }) : error, found?.variable);
  } finally {
    clearTimeout(timer);
  }
  return {
    handle,
    commands: handle as unknown as RedisCommands,
    ping: () => pingAll(handle),
    onError(listener: (error: unknown) => void) {
      handle.on('error', listener);
      // A cluster reports a node's broken connection apart from its own errors.
      if (isCluster(handle)) handle.on('node-error', listener);
    },
    close: () => disconnect(handle),
  };
}

/** Closes gracefully, or forcibly after `graceMs` so a dead connection cannot keep the process alive. */
async function disconnect(handle: RedisHandle, graceMs = 1000): Promise<void> {
  if (!handle.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), graceMs);
  });
  try {
    const outcome = await Promise.race([handle.close().then(() => 'closed' as const), grace]);
    if (outcome === 'timeout') destroyQuietly(handle);
  } catch {
    destroyQuietly(handle);
  } finally {
    clearTimeout(timer);
  }
}
