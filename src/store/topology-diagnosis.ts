import { createClient } from '@keyv/redis';
import type { RedisNodeAddress, RedisNodeAuth, RedisTopology } from './redis-topology.js';

type SentinelTopology = Extract<RedisTopology, { kind: 'sentinel' }>;
type ClusterTopology = Extract<RedisTopology, { kind: 'cluster' }>;

/** What a failed start-up found when it asked again, one node at a time. */
interface Diagnosis {
  detail: string;
  /** The variable to fix, when the answer names one. */
  variable: string;
}

/** How Redis (and node-redis) say the credentials were refused. */
export const CREDENTIALS_REFUSED = /WRONGPASS|NOAUTH|invalid password|invalid username/i;

/** One short-lived client of one node: `command`'s answer, or the node's own reason for refusing. */
async function ask(
  node: RedisNodeAddress,
  auth: RedisNodeAuth,
  command: string[],
  timeoutMs: number,
): Promise<unknown> {
  const client = createClient({
    socket: {
      ...node,
      ...(auth.tls ? { tls: true as const } : {}),
      connectTimeout: timeoutMs,
      reconnectStrategy: false,
    },
    ...(auth.username ? { username: auth.username } : {}),
    ...(auth.password ? { password: auth.password } : {}),
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await client.sendCommand(command);
  } finally {
    // A client whose handshake failed is closed already, and destroy() would throw over the reason.
    if (client.isOpen) client.destroy();
  }
}

/**
 * Why a Sentinel pool could not connect, found by asking the way it would: a sentinel for the
 * primary's address, then the primary itself with the node credentials. node-redis's Sentinel pool
 * retries a refused password until its own give-up point, so start-up would otherwise only say
 * "no answer"; this turns that into "WRONGPASS" (REDIS_PASSWORD) or "no primary named …"
 * (REDIS_SENTINEL_NAME). Undefined when nothing more specific is found.
 */
async function diagnoseSentinel(
  topology: SentinelTopology,
  timeoutMs: number,
): Promise<Diagnosis | undefined> {
  const sentinelAuth = { password: topology.sentinelPassword, tls: topology.auth.tls };
  for (const sentinel of topology.sentinels) {
    let primary: unknown;
    try {
      const command = ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', topology.name];
      primary = await ask(sentinel, sentinelAuth, command, timeoutMs);
    } catch {
      continue; // This sentinel is down: ask the next.
    }
    if (!Array.isArray(primary) || primary.length < 2) {
      return {
        detail: `the sentinels know no primary named "${topology.name}"`,
        variable: 'REDIS_SENTINEL_NAME',
      };
    }
    const node = { host: String(primary[0]), port: Number(primary[1]) };
    try {
      await ask(node, topology.auth, ['PING'], timeoutMs);
    } catch (error) {
      const message = (error as Error).message;
      const detail = `the primary at ${node.host}:${node.port}: ${message}`;
      return { detail, variable: CREDENTIALS_REFUSED.test(message) ? 'REDIS_PASSWORD' : 'REDIS_SENTINELS' };
    }
    return undefined;
  }
  return undefined;
}

/**
 * Why a cluster could not connect. node-redis's cluster client reports any failure of its root
 * nodes as "All the root nodes are unavailable", a refused password included; asking each root
 * node alone gives its own reason: WRONGPASS (REDIS_PASSWORD), an untrusted certificate, a refused
 * connection (REDIS_CLUSTER_NODES). A refused password decides at once; otherwise the first
 * node's reason is given. Undefined when every node answers alone.
 */
async function diagnoseCluster(topology: ClusterTopology, timeoutMs: number): Promise<Diagnosis | undefined> {
  let unreachable: Diagnosis | undefined;
  for (const node of topology.nodes) {
    try {
      await ask(node, topology.auth, ['PING'], timeoutMs);
    } catch (error) {
      const message = (error as Error).message || (error as Error).name;
      const detail = `the node at ${node.host}:${node.port}: ${message}`;
      if (CREDENTIALS_REFUSED.test(message)) return { detail, variable: 'REDIS_PASSWORD' };
      unreachable ??= { detail, variable: 'REDIS_CLUSTER_NODES' };
    }
  }
  return unreachable;
}

/** Asks node by node why a Sentinel pool or a cluster refused (their clients hide the reason). */
export async function diagnose(topology: RedisTopology, timeoutMs: number): Promise<Diagnosis | undefined> {
  if (topology.kind === 'sentinel') return diagnoseSentinel(topology, timeoutMs);
  if (topology.kind === 'cluster') return diagnoseCluster(topology, timeoutMs);
  return undefined;
}
