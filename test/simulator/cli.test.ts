import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SIM_TOKENS } from '../../dev/simulator/index.js';

describe('npm run simulator', () => {
  it('prints its URL, tokens and agents, serves the API there, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'dev/simulator/cli.ts', '--port', '0', '--quiet'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 15_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect(output).toContain(SIM_TOKENS.agent);
      expect(output).toContain('agents:');
      const response = await fetch(`${url}/v2/whoami`, { headers: { 'x-api-token': SIM_TOKENS.agent } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        accountId: expect.any(Number),
        accountName: expect.any(String),
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});

describe('npm run simulator -- --help', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'dev/simulator/cli.ts', ...args], { encoding: 'utf8' });

  it('prints the usage and exits 0, without starting anything', () => {
    const help = run('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run simulator -- \[options\]/);
    expect(help.stdout).toContain('--port <n>');
    expect(help.stdout).not.toContain('listening on');
    expect(help.stderr).not.toContain('ERR_PARSE_ARGS');
  });

  it('answers an unknown option with the usage and exit 2, not a stack trace', () => {
    const wrong = run('--colour');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--colour'");
    expect(wrong.stderr).toContain('Usage: npm run simulator');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });
});
