import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { harnessEnv } from '../support/bridge-harness.js';
import { askAndWaitForAnswer, killAllChildBots, spawnBot, startChildBot } from '../support/child-bot.js';

/** `.env` as a person writes it from .env.example: NAME=value lines. */
function envFileText(values: Record<string, string>): string {
  return `# written by the test\n${Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n')}\n`;
}

describe('npm start reads .env from its working directory', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  const directories: string[] = [];
  /** A fresh directory, with a `.env` holding `values` unless undefined. */
  const directory = (values?: Record<string, string>) => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sab-env-file-')));
    directories.push(dir);
    if (values) writeFileSync(path.join(dir, '.env'), envFileText(values));
    return dir;
  };

  beforeAll(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true }), startSlackStandin()]);
  });
  afterEach(async () => {
    await killAllChildBots();
  });
  afterAll(async () => {
    await Promise.all([sim?.close(), slack?.close()]);
    for (const dir of directories) rmSync(dir, { recursive: true, force: true });
  });

  it('starts from .env alone, says so in one start-up line, and answers', async () => {
    const cwd = directory(harnessEnv(sim, slack, { LOG_LEVEL: 'info' }));
    const bot = await startChildBot({}, { cwd });
    const lines = bot.logs().filter((line) => String(line.msg).includes('.env'));
    expect(lines, bot.describe()).toHaveLength(1);
    expect(lines[0]).toMatchObject({ loaded: true, envFile: path.join(cwd, '.env') });
    expect(String(lines[0]?.msg)).toContain(`read ${path.join(cwd, '.env')}`);
    await askAndWaitForAnswer(slack, bot, 'is .env enough?');
  });

  it('lets the environment win over .env', async () => {
    // The file's token is wrong: the simulator refuses it at start-up (exit 1) if the file won.
    const env = harnessEnv(sim, slack, { LOG_LEVEL: 'info' });
    const cwd = directory({ ...env, AGENT_API_TOKEN: 'wrong-token-from-the-file' });
    const bot = await startChildBot({ AGENT_API_TOKEN: env.AGENT_API_TOKEN as string }, { cwd });
    expect(
      bot.logs().find((line) => line.loaded === true),
      bot.describe(),
    ).toBeDefined();
    expect(bot.stdout() + bot.stderr()).not.toContain('AGENT_API_TOKEN');
  });

  it('names .env in the missing-variable error when there is none', async () => {
    const cwd = directory();
    const bot = spawnBot({}, { cwd });
    expect((await bot.exited).code, bot.describe()).toBe(1);
    expect(bot.stderr()).toMatch(/^\s*- AGENT_API_TOKEN: is required/m);
    expect(bot.stderr()).toContain(
      `No .env file in ${cwd}: copy .env.example to .env and fill it in, or set these variables in the environment.`,
    );
  });

  it('names the .env it read when variables are still missing', async () => {
    const cwd = directory({ LOG_LEVEL: 'info' });
    const bot = spawnBot({}, { cwd });
    expect((await bot.exited).code, bot.describe()).toBe(1);
    expect(bot.stderr()).toMatch(/^\s*- AGENT_ID: is required/m);
    expect(bot.stderr()).toContain(`read ${path.join(cwd, '.env')}`);
    expect(bot.stderr()).not.toContain('No .env file');
  });
});
