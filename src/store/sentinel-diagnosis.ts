import { createClient } from '@keyv/redis';
import type { RedisTopology } from './redis-topology.js';

type SentinelTopology = Extract<RedisTopology, { kind: 'sentinel' }>;

/**
 * Why a Sentinel pool could not connect, found by asking the way it would: a sentinel for the
 * primary's address, then the primary itself with the node credentials. node-redis's Sentinel pool
 * retries a refused password until its own give-up point, so start-up would otherwise only say
 * "no answer"; this turns that into "WRONGPASS" (REDIS_PASSWORD) or "no primary named …"
 * (REDIS_SENTINEL_NAME). Undefined when nothing more specific is found.
 */
export async function diagnoseSentinel(
  topology: SentinelTopology,
  timeoutMs: number,
): Promise<{ detail: string; variable: string } | undefined> {
  const tls = topology.auth.tls ? { tls: true as const } : {};
  const ask = async (
    node: { host: string; port: number },
    auth: { username?: string | undefined; password?: string | undefined },
    command: string[],
  ) => {
    const client = createClient({
      socket: { ...node, ...tls, connectTimeout: timeoutMs, reconnectStrategy: false },
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
  };
  for (const sentinel of topology.sentinels) {
    let primary: unknown;
    try {
      const command = ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', topology.name];
      primary = await ask(sentinel, { password: topology.sentinelPassword }, command);
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
      await ask(node, topology.auth, ['PING']);
    } catch (error) {
      const message = (error as Error).message;
      const credentials = /WRONGPASS|NOAUTH|invalid password|invalid username/i.test(message);
      const detail = `the primary at ${node.host}:${node.port}: ${message}`;
      return { detail, variable: credentials ? 'REDIS_PASSWORD' : 'REDIS_SENTINELS' };
    }
    return undefined;
  }
  return undefined;
}
