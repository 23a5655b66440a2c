import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, SIM_TOKENS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { signSlackRequest, TEST_APP_TOKEN, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { waitUntil } from '../support/child-bot.js';

/**
 * `npm run slack-standin`: the stand-in on its own, as compose's sandbox profile runs it (bots in
 * other processes reach it by a public URL; a person keeps asking, events go to the bots in turn).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'test-standin-cli-secret';

interface RunningCli {
  child: ChildProcess;
  output: () => string;
  url: string;
}

const children: ChildProcess[] = [];
const servers: Server[] = [];
let bridge: RunningBot | undefined;
let sim: Simulator | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await bridge?.stop();
  bridge = undefined;
  await sim?.close();
  sim = undefined;
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function startCli(args: string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'dev/slack-standin/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const url = await waitUntil(() => /listening on (http:\S+)/.exec(output)?.[1], {
    timeoutMs: 20_000,
    description: `the banner\n${output}`,
  });
  return { child, output: () => output, url };
}

/** A stand-in for a bot: records the signed events POSTed to /slack/events, rejects a bad signature. */
async function eventRecorder() {
  const received: Array<{ type: string; ts: string }> = [];
  let badSignatures = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const timestamp = Number(req.headers['x-slack-request-timestamp']);
      const expected = signSlackRequest(SECRET, body, timestamp)['x-slack-signature'];
      if (req.headers['x-slack-signature'] !== expected) badSignatures += 1;
      const { event } = JSON.parse(body) as { event: { type: string; ts: string } };
      received.push({ type: event.type, ts: event.ts });
      res.writeHead(200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, badSignatures: () => badSignatures };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run slack-standin', () => {
  it('serves the Web API and hands out its public URL for Socket Mode', async () => {
    const port = await freePort();
    const cli = await startCli([
      '--port',
      String(port),
      '--public-url',
      'http://slack-standin.internal:3100/',
    ]);
    expect(cli.url).toBe('http://slack-standin.internal:3100');
    const local = `http://127.0.0.1:${port}`;
    const auth = await fetch(`${local}/api/auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
    });
    expect(await auth.json()).toMatchObject({ ok: true, user_id: 'UBOT' });
    const open = await fetch(`${local}/api/apps.connections.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_APP_TOKEN}` },
    });
    const { url } = (await open.json()) as { url: string };
    expect(url).toMatch(/^ws:\/\/slack-standin\.internal:3100\/socket\?ticket=/);
  });

  it('refuses to ask without a bot to ask, or to send unsigned events', async () => {
    const run = (args: string[]) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'dev/slack-standin/cli.ts', ...args], {
          cwd: ROOT,
          stdio: 'ignore',
        });
        child.on('close', resolve);
      });
    expect(await run(['--port', '0', '--ask-every-ms', '100'])).toBe(2);
    expect(await run(['--port', '0', '--events-url', 'http://127.0.0.1:1'])).toBe(2);
  });

  it('keeps asking, sending each mention signed to the bots in turn (app_mention and message apart)', async () => {
    const [first, second] = await Promise.all([eventRecorder(), eventRecorder()]);
    const cli = await startCli([
      '--port',
      '0',
      '--signing-secret',
      SECRET,
      '--events-url',
      first.url,
      '--events-url',
      second.url,
      '--ask-every-ms',
      '150',
    ]);
    await waitUntil(() => first.received.length >= 2 && second.received.length >= 2, {
      timeoutMs: 15_000,
      description: `two events at each bot\n${cli.output()}`,
    });
    expect(first.badSignatures() + second.badSignatures()).toBe(0);
    // Question 1: app_mention to the first bot, message to the second; question 2 the other way round.
    expect(first.received[0]?.type).toBe('app_mention');
    expect(second.received[0]).toEqual({ type: 'message', ts: first.received[0]?.ts });
    expect(second.received.find((event) => event.type === 'app_mention')).toBeDefined();
    expect(cli.output()).toMatch(/asked question 1 in thread \d+\.\d+/);
  });

  it('drives a real bot to an answer and prints it', async () => {
    sim = await startSimulator({
      quiet: true,
      longPollMs: 300,
      defaultScript: { steps: 1, stepMs: 20, outcome: 'done' },
    });
    const [standinPort, botPort] = await Promise.all([freePort(), freePort()]);
    const cli = await startCli([
      '--port',
      String(standinPort),
      '--signing-secret',
      SECRET,
      '--events-url',
      `http://127.0.0.1:${botPort}`,
      '--ask-every-ms',
      '1000',
    ]);
    const config = loadConfig({
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: `${cli.url}/api/`,
      PORT: String(botPort),
      HOST: '127.0.0.1',
      AGENT_API_URL: sim.url,
      AGENT_API_TOKEN: SIM_TOKENS.agent,
      AGENT_ID: SIM_AGENTS.api,
      LOG_LEVEL: 'silent',
    });
    bridge = await startBot(config, { logger: silentLogger });
    await waitUntil(() => /answer in thread \d+\.\d+: \S/.test(cli.output()), {
      timeoutMs: 20_000,
      description: `an answer printed\n${cli.output()}`,
    });
  });
});

describe('npm run slack-standin -- --help', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'dev/slack-standin/cli.ts', ...args], {
      encoding: 'utf8',
    });

  it('prints the usage and exits 0, without starting anything', () => {
    const help = run('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run slack-standin -- \[options\]/);
    expect(help.stdout).toContain('--port <n>');
    expect(help.stdout).not.toContain('listening on');
    expect(help.stderr).not.toContain('ERR_PARSE_ARGS');
  });

  it('answers an unknown option with the usage and exit 2, not a stack trace', () => {
    const wrong = run('--colour');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--colour'");
    expect(wrong.stderr).toContain('Usage: npm run slack-standin');
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });
});
