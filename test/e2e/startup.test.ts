import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_TOKENS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import {
  type SlackStandin,
  startSlackStandin,
  TEST_APP_TOKEN,
  TEST_BOT_TOKEN,
} from '../../dev/slack-standin/index.js';
import { closedPortUrl } from '../agent-api/support/scripted-server.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { killAllChildBots, spawnBot, startChildBot } from '../support/child-bot.js';

describe('npm start as a process', () => {
  let sim: Simulator;
  let slack: SlackStandin;

  beforeAll(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true }), startSlackStandin()]);
  });
  afterEach(async () => {
    await killAllChildBots();
  });
  afterAll(async () => {
    await Promise.all([sim?.close(), slack?.close()]);
  });

  it('exits 1 naming every missing variable, one per line, and points to the sandbox', async () => {
    const bot = spawnBot({});
    const exit = await bot.exited;
    expect(exit.code, bot.describe()).toBe(1);
    const lines = bot.stderr().split('\n');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'AGENT_API_URL',
      'AGENT_API_TOKEN',
      'AGENT_ID',
    ]) {
      expect(
        lines.filter((line) => line.includes(name)),
        `${name} on exactly one line:\n${bot.stderr()}`,
      ).toHaveLength(1);
    }
    expect(bot.stderr()).toContain('npm run sandbox');
  });

  it.each([
    ['PORT', 'abc'],
    ['AGENT_API_URL', '::bad'],
    ['LEASE_TTL_MS', '10'],
    ['REDIS_URL', 'localhost:6379'],
    // A bot token where the app-level token goes: Socket Mode would retry for ever.
    ['SLACK_APP_TOKEN', 'xoxb-test-wrong-kind'],
  ])('exits 1 on a bad %s (%s), naming it', async (name, value) => {
    const bot = spawnBot(harnessEnv(sim, slack, { [name]: value }));
    const exit = await bot.exited;
    expect(exit.code, bot.describe()).toBe(1);
    expect(bot.stderr()).toMatch(new RegExp(`^\\s*- ${name}: `, 'm'));
    expect(bot.stderr()).toContain('npm run sandbox');
  });

  it.each([
    ['AGENT_API_URL', 'http://api.logz.io'],
    ['SLACK_API_URL', 'http://slack.com/api/'],
  ])(
    'exits 1 on plain http:// to a host off this machine (%s=%s), saying why, before using a token',
    async (name, value) => {
      const bot = spawnBot(harnessEnv(sim, slack, { [name]: value }));
      const exit = await bot.exited;
      expect(exit.code, bot.describe()).toBe(1);
      expect(bot.stderr()).toMatch(
        new RegExp(
          `^\\s*- ${name}: ${new URL(value).origin.replace(/\./g, '\\.')} is not on this machine, so the token would travel in clear text: use https://`,
          'm',
        ),
      );
      // Stopped at the configuration, before the token went anywhere.
      expect(bot.stderr()).toContain('invalid configuration');
      expect(bot.stderr()).not.toMatch(/could not verify SLACK_BOT_TOKEN|AGENT_API_TOKEN/);
    },
  );

  it('exits 1 within a bounded time with a clear message when Slack cannot be reached', async () => {
    const nowhere = await closedPortUrl();
    const started = Date.now();
    const bot = spawnBot(harnessEnv(sim, slack, { SLACK_API_URL: `${nowhere}/api/` }));
    const exit = await bot.exited;
    expect(exit.code, bot.describe()).toBe(1);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(bot.stderr()).toMatch(/could not verify SLACK_BOT_TOKEN with Slack/);
    expect(bot.stderr()).toContain(new URL(nowhere).host); // 127.0.0.1:<port>
    expect(bot.stderr()).not.toContain(TEST_BOT_TOKEN);
  });

  it('answers /healthz once ready (HTTP mode), stops on SIGTERM with exit 0, and never logs a token', async () => {
    const bot = await startChildBot(harnessEnv(sim, slack, { LOG_LEVEL: 'debug' }));
    const health = await fetch(`${bot.url}/healthz`);
    expect(health.status).toBe(200);
    // Unsigned traffic is refused: HTTP mode checks the signing secret.
    const unsigned = await fetch(`${bot.url}/slack/events`, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    await unsigned.body?.cancel();

    const stopping = Date.now();
    const exit = await bot.kill('SIGTERM');
    expect(exit, bot.describe()).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(bot.logs().some((line) => line.msg === 'slack-agent-bridge stopped')).toBe(true);

    const output = bot.stdout() + bot.stderr();
    for (const secret of [TEST_BOT_TOKEN, SIM_TOKENS.agent, SIM_TOKENS.main, TEST_SIGNING_SECRET]) {
      expect(output).not.toContain(secret);
    }
  });

  it('treats an empty variable as unset and says so in the log', async () => {
    const bot = await startChildBot(harnessEnv(sim, slack, { AGENT_MAX_IN_FLIGHT: '', LOG_LEVEL: 'info' }));
    const warning = bot
      .logs()
      .find((line) => String(line.msg).startsWith('empty variables are treated as unset'));
    expect(warning?.variables, bot.describe()).toEqual(['AGENT_MAX_IN_FLIGHT']);
    expect(await bot.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('exits 1 naming SLACK_APP_TOKEN when Slack refuses it, without printing it', async () => {
    const strict = await startSlackStandin({ appToken: TEST_APP_TOKEN });
    try {
      const wrong = 'xapp-test-wrong-not-a-real-token';
      const { SLACK_SIGNING_SECRET: _unused, ...env } = harnessEnv(sim, strict, { SLACK_APP_TOKEN: wrong });
      const bot = spawnBot(env);
      const exit = await bot.exited;
      expect(exit.code, bot.describe()).toBe(1);
      expect(bot.stderr()).toContain('Slack refused SLACK_APP_TOKEN (apps.connections.open: invalid_auth)');
      expect(bot.stdout() + bot.stderr()).not.toContain(wrong);
      expect(strict.socket.connected()).toBe(false);
    } finally {
      await strict.close();
    }
  });

  it('runs in Socket Mode with an app token and no signing secret: connected, healthy, SIGTERM exits 0', async () => {
    const { SLACK_SIGNING_SECRET: _unused, ...env } = harnessEnv(sim, slack, {
      SLACK_APP_TOKEN: TEST_APP_TOKEN,
    });
    const bot = await startChildBot(env);
    expect(slack.socket.connected()).toBe(true);
    expect(bot.logs().find((line) => line.msg === 'slack-agent-bridge started')?.mode).toBe('socket');
    const exit = await bot.kill('SIGTERM');
    expect(exit, bot.describe()).toEqual({ code: 0, signal: null });
    expect(bot.stdout() + bot.stderr()).not.toContain(TEST_APP_TOKEN);
  });
});
