import { createClient } from '@keyv/redis';
import type { RedisNodeAddress, RedisNodeAuth, RedisTopology } from './redis-topology.js';

/** What a failed start-up found when it asked again, one node at a time. */
interface Diagnosis {
  detail: string;
  /** The variable to fix, when the answer names one. */
  variable: string;
}

/** How Redis (and node-redis) say the credentials were refused. */
export const CREDENTIALS_REFUSED = /WRONGPASS|NOAUTH|invalid password|invalid username/i;

/** One short-lived client of one node: `command`'s answer, or the node's own reason for refusing. */
async function ask(node: RedisNodeAddress, auth: RedisNodeAuth, command: string[], timeoutMs: number) {
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
 * Asks as a Sentinel pool would: a sentinel for the primary, then the primary with the node
 * credentials. The pool retries a refused password until it gives up with "no answer"; this says
 * "WRONGPASS" (REDIS_PASSWORD) or "no primary named …" (REDIS_SENTINEL_NAME) instead.
 */
async function diagnoseSentinel(topology: Extract<RedisTopology, { kind: 'sentinel' }>, timeoutMs: number) {
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
      const detail = `the sentinels know no primary named "${topology.name}"`;
      return { detail, variable: 'REDIS_SENTINEL_NAME' };
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
 * node-redis's cluster client says "All the root nodes are unavailable" whatever failed; each root
 * node alone gives its reason: WRONGPASS (REDIS_PASSWORD, decides at once), an untrusted
 * certificate or a refused connection (REDIS_CLUSTER_NODES, the first node's reason is given).
 */
async function diagnoseCluster(topology: Extract<RedisTopology, { kind: 'cluster' }>, timeoutMs: number) {
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
