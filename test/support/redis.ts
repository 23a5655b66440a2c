import { randomUUID } from 'node:crypto';
import net from 'node:net';

/** Where tests find Redis; every test gets its own key prefix on this one server. */
export const TEST_REDIS_URL = 'redis://127.0.0.1:6379';

/** CI sets REQUIRE_REDIS=1 (or CI=true): there, a missing Redis fails the run instead of skipping. */
export const redisRequired = process.env.REQUIRE_REDIS === '1' || process.env.CI === 'true';

function portAnswers(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * True when Redis answers on 127.0.0.1:6379. When it does not: throws where Redis is required
 * (CI), otherwise prints why the Redis tests are skipped and returns false.
 */
export async function redisAvailable(): Promise<boolean> {
  const ok = await portAnswers('127.0.0.1', 6379, 500);
  if (ok) return true;
  if (redisRequired) {
    throw new Error('Redis is required here (CI or REQUIRE_REDIS=1) but nothing answers on 127.0.0.1:6379');
  }
  console.warn(
    '[redis] no Redis on 127.0.0.1:6379: skipping the Redis tests (start redis-server to run them)',
  );
  return false;
}

/** A key prefix no other test uses, so tests can share one Redis. */
export function uniqueRedisPrefix(label: string): string {
  return `test:${label}:${randomUUID().slice(0, 8)}`;
}
