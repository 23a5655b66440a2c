import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import { waitUntil } from './child-bot.js';
import { freePort, launch } from './redis-server.js';

/**
 * Redis topologies of the test's own, on free loopback ports (DESIGN "Redis beyond one node"):
 * a primary with a replica watched by three sentinels, a cluster of three primaries, one server
 * speaking TLS with a password. Every process is killed with SIGKILL — a crash, as in production.
 */

/** One redis-server process that can be killed and started again with the same files. */
export interface RedisNode {
  readonly port: number;
  readonly dir: string;
  kill(): Promise<void>;
  start(): Promise<void>;
}

async function startNode(
  args: (port: number, dir: string) => string[],
  readyLine?: string,
): Promise<RedisNode> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sab-ha-'));
  const argv = args(port, dir);
  let child: ChildProcess | undefined = await launch(argv, readyLine);
  return {
    port,
    dir,
    async kill() {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null || current.signalCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGKILL');
      await exited;
    },
    async start() {
      if (child) throw new Error(`redis-server on ${port} is already running`);
      child = await launch(argv, readyLine);
    },
  };
}

const baseArgs = (port: number, dir: string) => ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];

/** A self-signed certificate for 127.0.0.1 (its own CA) and its key, as files. */
interface Certificate {
  cert: string;
  key: string;
}

/** The arguments of a node that speaks only TLS on `port`, with `certificate`; clients need none. */
const tlsArgs = (port: number, dir: string, certificate: Certificate) => [
  ...['--port', '0', '--tls-port', String(port), '--bind', '127.0.0.1', '--dir', dir],
  ...['--tls-cert-file', certificate.cert, '--tls-key-file', certificate.key],
  ...['--tls-ca-cert-file', certificate.cert, '--tls-auth-clients', 'no'],
];

/** A certificate in a directory of its own, when `tls`; `close` removes it. */
function certificateFor(tls: boolean | undefined) {
  const dir = tls ? mkdtempSync(join(tmpdir(), 'sab-tls-')) : undefined;
  return {
    certificate: dir ? selfSignedCertificate(dir) : undefined,
    close: () => (dir ? rmSync(dir, { recursive: true, force: true }) : undefined),
  };
}

/** How the test's own client reaches a node: its password, and the CA file when it speaks only TLS. */
export interface NodeAuth {
  password?: string | undefined;
  caFile?: string | undefined;
}

/** A short-lived client of one node, for the test's own questions. */
export async function withNode<T>(
  port: number,
  use: (client: RedisClientType) => Promise<T>,
  auth: NodeAuth = {},
): Promise<T> {
  const tls = auth.caFile ? { tls: true as const, ca: readFileSync(auth.caFile) } : {};
  const client: RedisClientType = createClient({
    socket: { host: '127.0.0.1', port, reconnectStrategy: false, ...tls },
    ...(auth.password ? { password: auth.password } : {}),
  });
  client.on('error', () => {});
  await client.connect();
  try {
    return await use(client);
  } finally {
    if (client.isOpen) client.destroy();
  }
}

async function close(nodes: RedisNode[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.kill()));
  for (const node of nodes) rmSync(node.dir, { recursive: true, force: true });
}

// --- Sentinel -------------------------------------------------------------------------------

export const SENTINEL_NAME = 'sab-primary';

export interface SentinelSet {
  primary: RedisNode;
  replica: RedisNode;
  sentinels: RedisNode[];
  /** REDIS_SENTINELS and REDIS_SENTINEL_NAME (and REDIS_PASSWORD when the nodes have one). */
  env: Record<string, string>;
  /** The port Sentinel names as the primary now. */
  primaryPort(): Promise<number>;
  /** Kills the primary (SIGKILL) and waits until the sentinels have promoted the replica. */
  failover(): Promise<void>;
  close(): Promise<void>;
}

async function sentinelNode(
  primaryPort: number,
  password: string | undefined,
  certificate: Certificate | undefined,
): Promise<RedisNode> {
  return startNode((port, dir) => {
    const conf = join(dir, 'sentinel.conf');
    const listen = certificate
      ? [
          'port 0',
          `tls-port ${port}`,
          `tls-cert-file ${certificate.cert}`,
          `tls-key-file ${certificate.key}`,
          `tls-ca-cert-file ${certificate.cert}`,
          'tls-auth-clients no',
          // Sentinel's own connections (to the data nodes and the other sentinels) over TLS too.
          'tls-replication yes',
        ]
      : [`port ${port}`];
    const lines = [
      ...listen,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
      `sentinel failover-timeout ${SENTINEL_NAME} 5000`,
      ...(password ? [`sentinel auth-pass ${SENTINEL_NAME} ${password}`] : []),
    ];
    writeFileSync(conf, `${lines.join('\n')}\n`);
    return [conf, '--sentinel'];
  }, '+monitor master');
}

export interface SentinelOptions {
  /** `requirepass` and `masterauth` on the data nodes (the sentinels have none). */
  password?: string;
  /** Every node and sentinel speaks only TLS, replication included, with a certificate made here. */
  tls?: boolean;
}

/** A primary, its replica and three sentinels (quorum 2), ready to fail over. */
export async function startSentinelSet(options: SentinelOptions = {}): Promise<SentinelSet> {
  const { certificate, close: removeCertificate } = certificateFor(options.tls);
  const nodeAuth: NodeAuth = { password: options.password, caFile: certificate?.cert };
  const sentinelAuth: NodeAuth = { caFile: certificate?.cert };
  const auth = options.password ? ['--requirepass', options.password, '--masterauth', options.password] : [];
  const listen = (port: number, dir: string) =>
    certificate ? [...tlsArgs(port, dir, certificate), '--tls-replication', 'yes'] : baseArgs(port, dir);
  // Full syncs start at once (Redis waits 5 s by default for more replicas to join one).
  const persistence = ['--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0'];
  const primary = await startNode((port, dir) => [...listen(port, dir), ...persistence, ...auth]);
  const replica = await startNode((port, dir) => [
    ...listen(port, dir),
    ...persistence,
    ...auth,
    '--replicaof',
    '127.0.0.1',
    String(primary.port),
  ]);
  await waitUntil(
    () =>
      withNode(replica.port, (client) => client.info('replication'), nodeAuth).then((info) =>
        info.includes('master_link_status:up'),
      ),
    { timeoutMs: 20_000, intervalMs: 100, description: 'the replica in sync with the primary' },
  );
  const sentinels = await Promise.all(
    [0, 1, 2].map(() => sentinelNode(primary.port, options.password, certificate)),
  );
  const ask = (args: string[]) =>
    withNode(sentinels[0]?.port ?? 0, (client) => client.sendCommand(args), sentinelAuth);
  // Ready to fail over: every sentinel knows the replica and the two other sentinels.
  await waitUntil(
    async () => {
      const states = await Promise.all(
        sentinels.map((node) =>
          withNode(
            node.port,
            (client) => client.sendCommand(['SENTINEL', 'MASTER', SENTINEL_NAME]),
            sentinelAuth,
          ),
        ),
      );
      return states.every((state) => {
        const fields = state as unknown as string[];
        const field = (name: string) => Number(fields[fields.indexOf(name) + 1]);
        return field('num-slaves') === 1 && field('num-other-sentinels') === 2;
      });
    },
    { timeoutMs: 20_000, intervalMs: 200, description: 'sentinels that know the replica and each other' },
  );
  const primaryPort = async () =>
    Number(((await ask(['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', SENTINEL_NAME])) as unknown as string[])[1]);
  return {
    primary,
    replica,
    sentinels,
    env: {
      REDIS_SENTINELS: sentinels.map((node) => `127.0.0.1:${node.port}`).join(','),
      REDIS_SENTINEL_NAME: SENTINEL_NAME,
      ...(options.password ? { REDIS_PASSWORD: options.password } : {}),
      ...(certificate ? { REDIS_TLS: 'true', NODE_EXTRA_CA_CERTS: certificate.cert } : {}),
    },
    primaryPort,
    async failover() {
      await primary.kill();
      await waitUntil(async () => (await primaryPort()) === replica.port, {
        timeoutMs: 20_000,
        intervalMs: 200,
        description: 'the replica promoted by the sentinels',
      });
    },
    async close() {
      await close([...sentinels, replica, primary]);
      removeCertificate();
    },
  };
}

// --- Cluster --------------------------------------------------------------------------------

export interface RedisClusterSet {
  nodes: RedisNode[];
  /** REDIS_CLUSTER_NODES (and REDIS_PASSWORD, REDIS_TLS and NODE_EXTRA_CA_CERTS as the nodes need). */
  env: Record<string, string>;
  /** How many keys under `prefix::` each node holds, in node order. */
  keysPerNode(prefix: string): Promise<number[]>;
  /** Waits until every node reports the cluster ok. */
  healthy(): Promise<void>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** `requirepass` (and `masterauth`) on every node. */
  password?: string;
  /** Clients and the cluster bus speak only TLS, with a self-signed certificate made here. */
  tls?: boolean;
}

/** `count` primaries (no replicas), slots spread by `redis-cli --cluster create`, append-only files. */
export async function startCluster(count = 3, options: ClusterOptions = {}): Promise<RedisClusterSet> {
  const { certificate, close: removeCertificate } = certificateFor(options.tls);
  const auth: NodeAuth = { password: options.password, caFile: certificate?.cert };
  const listen = (port: number, dir: string) =>
    certificate ? [...tlsArgs(port, dir, certificate), '--tls-cluster', 'yes'] : baseArgs(port, dir);
  const password = options.password
    ? ['--requirepass', options.password, '--masterauth', options.password]
    : [];
  const nodes = await Promise.all(
    Array.from({ length: count }, () =>
      startNode((port, dir) => [
        ...listen(port, dir),
        ...password,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, 'nodes.conf'),
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
      ]),
    ),
  );
  const cliAuth = [
    ...(options.password ? ['-a', options.password, '--no-auth-warning'] : []),
    ...(certificate ? ['--tls', '--cacert', certificate.cert] : []),
  ];
  const created = spawnSync(
    'redis-cli',
    [...cliAuth, '--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-yes'],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (created.status !== 0)
    throw new Error(`redis-cli --cluster create failed:\n${created.stdout}${created.stderr}`);
  const healthy = () =>
    waitUntil(
      async () => {
        const states = await Promise.all(
          nodes.map((node) => withNode(node.port, (client) => client.clusterInfo(), auth).catch(() => '')),
        );
        return states.every((info) => info.includes('cluster_state:ok'));
      },
      { timeoutMs: 20_000, intervalMs: 200, description: 'every cluster node reporting cluster_state:ok' },
    ).then(() => undefined);
  await healthy();
  return {
    nodes,
    env: {
      REDIS_CLUSTER_NODES: nodes.map((node) => `127.0.0.1:${node.port}`).join(','),
      ...(options.password ? { REDIS_PASSWORD: options.password } : {}),
      ...(certificate ? { REDIS_TLS: 'true', NODE_EXTRA_CA_CERTS: certificate.cert } : {}),
    },
    keysPerNode: (prefix) =>
      Promise.all(
        nodes.map((node) =>
          withNode(node.port, async (client) => (await client.keys(`${prefix}::*`)).length, auth),
        ),
      ),
    healthy,
    async close() {
      await close(nodes);
      removeCertificate();
    },
  };
}

// --- TLS ------------------------------------------------------------------------------------

export interface TlsRedis {
  node: RedisNode;
  /** `rediss://:<password>@127.0.0.1:<port>`. */
  url: string;
  /** The self-signed certificate (its own CA), for NODE_EXTRA_CA_CERTS. */
  caFile: string;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1, made with the openssl CLI into `dir`. */
function selfSignedCertificate(dir: string): Certificate {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]),
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  return { cert, key };
}

/** One server that speaks only TLS and requires `password`. */
export async function startTlsRedis(password: string): Promise<TlsRedis> {
  const { certificate, close: removeCertificate } = certificateFor(true);
  if (!certificate) throw new Error('no certificate made');
  const node = await startNode((port, dir) => [
    ...tlsArgs(port, dir, certificate),
    ...['--requirepass', password, '--save', '', '--appendonly', 'no'],
  ]);
  return {
    node,
    url: `rediss://:${password}@127.0.0.1:${node.port}`,
    caFile: certificate.cert,
    async close() {
      await close([node]);
      removeCertificate();
    },
  };
}
