import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisRequired } from './redis.js';

/**
 * A Redis server of the test's own, on a free loopback port, for tests that stop and start Redis
 * (the shared one on 6379 is never stopped).
 * - `none`: no persistence (`--save '' --appendonly no`): restarted after a crash, it is empty;
 * - `aof`: append-only file, fsync on every write (what compose.yaml runs): it comes back with its data.
 */
export type RedisPersistence = 'none' | 'aof';

export interface OwnRedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL: a crash, no goodbye to clients) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it for good and removes its files (afterAll). */
  close(): Promise<void>;
}

const servers = new Set<ChildProcess>();

/**
 * True when `redis-server` can be run. When it cannot: throws where Redis is required (CI, or
 * REQUIRE_REDIS=1), otherwise prints why the tests are skipped and returns false.
 */
export function redisServerInstalled(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  if (redisRequired) {
    throw new Error('redis-server is required here (CI or REQUIRE_REDIS=1) but it cannot be run');
  }
  console.warn(
    '[redis] redis-server is not installed: skipping the tests that stop and restart Redis (install redis-server to run them)',
  );
  return false;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port from the OS');
  return address.port;
}

/** Starts `redis-server args…`; resolves once its log shows `readyLine` (default: ready to accept connections). */
export function launch(args: string[], readyLine = 'Ready to accept connections'): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  servers.add(child);
  child.once('exit', () => servers.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}\n${output.slice(-2000)}`));
    };
    const exitedEarly = (code: number | null, signal: string | null) =>
      fail(`redis-server exited before it was ready (${code ?? signal})`);
    const timer = setTimeout(() => fail('redis-server was not ready within 5 s'), 5_000);
    child.once('exit', exitedEarly);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (!output.includes(readyLine)) return;
      clearTimeout(timer);
      child.off('exit', exitedEarly);
      resolve(child);
    });
  });
}

/** Starts a fresh redis-server on a free loopback port. */
export async function startOwnRedis(persistence: RedisPersistence = 'none'): Promise<OwnRedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sab-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push(
    ...(persistence === 'aof' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  );
  let child: ChildProcess | undefined = await launch(args);
  const stop = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    async start() {
      if (child) throw new Error('this redis-server is already running');
      child = await launch(args);
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A crashed or interrupted test run must not leave a redis-server behind.
process.once('exit', () => {
  for (const child of servers) child.kill('SIGKILL');
});
