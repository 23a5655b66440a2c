import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { waitUntil } from '../support/child-bot.js';

/** `npm run simulator -- --host …`: the address it listens on (compose's sandbox profile uses 0.0.0.0). */
describe('npm run simulator --host', () => {
  it('listens on the address given, not only on 127.0.0.1', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'dev/simulator/cli.ts', '--host', '127.0.0.2', '--port', '0', '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    try {
      // Linux routes all of 127.0.0.0/8 to loopback: a second address without a second interface.
      const url = await waitUntil(() => /listening on (http:\/\/127\.0\.0\.2:\d+)/.exec(output)?.[1], {
        timeoutMs: 15_000,
        description: `the URL on 127.0.0.2\n${output}`,
      });
      const response = await fetch(`${url}/v2/whoami`);
      await response.body?.cancel();
      expect(response.status).toBe(401);
      const otherAddress = url.replace('127.0.0.2', '127.0.0.1');
      await expect(fetch(`${otherAddress}/v2/whoami`)).rejects.toThrow();
    } finally {
      child.kill('SIGTERM');
    }
  });
});
