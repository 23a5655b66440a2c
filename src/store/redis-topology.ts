/** One `host:port` of REDIS_SENTINELS or REDIS_CLUSTER_NODES. */
export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** Credentials and TLS of the data nodes behind Sentinel or in a cluster (a URL carries its own). */
export interface RedisNodeAuth {
  username?: string | undefined;
  password?: string | undefined;
  /** Speak TLS to every node (what `rediss://` says for a URL). */
  tls: boolean;
}

/**
 * Where the Redis state lives (DESIGN "Redis beyond one node"): one server (or managed endpoint)
 * by URL, a primary through Sentinel, or a cluster. Plain data: redis-connection.ts connects to it.
 */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: RedisNodeAddress[];
      /** The monitored primary's name (REDIS_SENTINEL_NAME). */
      name: string;
      auth: RedisNodeAuth;
      /** The sentinels' own password, when they require one (REDIS_SENTINEL_PASSWORD). */
      sentinelPassword?: string | undefined;
    }
  | { kind: 'cluster'; nodes: RedisNodeAddress[]; auth: RedisNodeAuth };

/** The variable an operator set to choose each kind of topology, named in start-up errors. */
export const TOPOLOGY_VARIABLES = {
  single: 'REDIS_URL',
  sentinel: 'REDIS_SENTINELS',
  cluster: 'REDIS_CLUSTER_NODES',
};

/** Where the topology points, for logs and errors: addresses only, never a credential. */
export function describeTopology(topology: RedisTopology): string {
  const list = (nodes: RedisNodeAddress[]) => nodes.map((node) => `${node.host}:${node.port}`).join(',');
  if (topology.kind === 'single') {
    if (!URL.canParse(topology.url)) return '(unparseable REDIS_URL)';
    const url = new URL(topology.url);
    return `${url.hostname}:${url.port || '6379'}`;
  }
  if (topology.kind === 'sentinel') return `sentinel ${topology.name} via ${list(topology.sentinels)}`;
  return `cluster ${list(topology.nodes)}`;
}

/** Parses `host:port` (IPv6 in brackets: `[::1]:6379`); undefined when it is not one. */
export function parseNodeAddress(text: string): RedisNodeAddress | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: (match[1] ?? match[2]) as string, port };
}
