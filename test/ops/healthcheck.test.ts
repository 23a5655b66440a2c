import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** scripts/healthcheck.mjs, the image's and compose's health check: GET /healthz on HOST:PORT. */

const SCRIPT = fileURLToPath(new URL('../../scripts/healthcheck.mjs', import.meta.url));
let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

async function serve(host: string, status: number): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server?.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, paths };
}

function check(env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    child.on('close', resolve);
  });
}

describe('scripts/healthcheck.mjs', () => {
  it('passes when /healthz on PORT answers 200 (HOST unset or 0.0.0.0 means loopback)', async () => {
    const { port, paths } = await serve('127.0.0.1', 200);
    expect(await check({ PORT: String(port) })).toBe(0);
    expect(await check({ PORT: String(port), HOST: '0.0.0.0' })).toBe(0);
    expect(paths).toEqual(['/healthz', '/healthz']);
  });

  it('asks on HOST when the bot listens on one address only', async () => {
    // Linux routes all of 127.0.0.0/8 to loopback: a second address without a second interface.
    const { port } = await serve('127.0.0.2', 200);
    expect(await check({ PORT: String(port), HOST: '127.0.0.2' })).toBe(0);
    // The same port on another address is not the bot.
    expect(await check({ PORT: String(port), HOST: '127.0.0.1' })).toBe(1);
  });

  it('fails while the bot is not ready (503) or not listening', async () => {
    const { port } = await serve('127.0.0.1', 503);
    expect(await check({ PORT: String(port) })).toBe(1);
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    expect(await check({ PORT: String(port) })).toBe(1);
  });
});
