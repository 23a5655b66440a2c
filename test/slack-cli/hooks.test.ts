import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import {
  type SlackStandin,
  startSlackStandin,
  TEST_APP_TOKEN,
  TEST_BOT_TOKEN,
} from '../../dev/slack-standin/index.js';
import { mentionEvents, messagesOfType, waitUntil } from '../support/child-bot.js';
import { eventCallback } from '../support/slack-events.js';

/**
 * The Slack CLI's side of the project, run as the CLI runs it: `.slack/hooks.json` names get-hooks,
 * get-hooks names the rest, each is a command run in the project directory whose stdout is the
 * answer. https://github.com/slackapi/slack-cli/blob/main/.github/cli-sdk-specification.md
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a hook command line (`node scripts/…`) as the CLI does: split on spaces, cwd the project. */
function runHook(command: string, extraArgs: string[] = [], cwd = ROOT): Promise<HookRun> {
  const [program, ...args] = command.split(' ');
  expect(program).toBe('node');
  const child = spawn(process.execPath, [...args, ...extraArgs], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

interface HooksAnswer {
  hooks: Record<string, string>;
  config: { 'protocol-version': string[]; 'sdk-managed-connection-enabled': boolean; watch: unknown };
  runtime: string;
}

async function getHooks(): Promise<HooksAnswer> {
  const file = JSON.parse(readFileSync(join(ROOT, '.slack/hooks.json'), 'utf8')) as {
    hooks: Record<string, string>;
  };
  const getHooksCommand = file.hooks['get-hooks'];
  expect(getHooksCommand).toBeDefined();
  const run = await runHook(getHooksCommand as string);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as HooksAnswer;
}

/** Every value in the manifest, with the path to it. */
function leaves(value: unknown, path = ''): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object') return [[path, value]];
  return Object.entries(value).flatMap(([key, child]) => leaves(child, `${path}/${key}`));
}

/** The parts of a manifest these tests read. */
interface Manifest {
  settings: { socket_mode_enabled: boolean };
  oauth_config: { scopes: { bot: string[] } };
  features: { slash_commands: Array<{ command: string }> };
}

const sourceManifest = () => parse(readFileSync(join(ROOT, 'manifest.yml'), 'utf8')) as Manifest;

describe('Slack CLI hooks', () => {
  it('get-hooks answers the CLI-SDK interface: our hooks, Socket Mode managed by the bot, message boundaries', async () => {
    const answer = await getHooks();
    expect(answer.runtime).toBe('node');
    expect(answer.config['sdk-managed-connection-enabled']).toBe(true);
    expect(answer.config['protocol-version']).toEqual(['message-boundaries']);
    expect(Object.keys(answer.hooks).sort()).toEqual(['deploy', 'get-manifest', 'start']);
    for (const command of Object.values(answer.hooks)) {
      const script = command.split(' ')[1] as string;
      expect(() => readFileSync(join(ROOT, script)), command).not.toThrow();
    }
  });

  it('get-manifest answers manifest.yml as JSON in its Socket Mode variant, and nothing else on stdout', async () => {
    const { hooks } = await getHooks();
    const run = await runHook(hooks['get-manifest'] as string);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(run.stdout) as Manifest;
    const source = sourceManifest();
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(source.settings.socket_mode_enabled).toBe(false);
    // No request URL survives (Socket Mode has none); everything else is manifest.yml's.
    const urls = leaves(manifest).filter(([path]) => /\/(url|request_url)$/.test(path));
    expect(urls).toEqual([]);
    const isUrlOrMode = (path: string) => /\/(url|request_url|socket_mode_enabled)$/.test(path);
    expect(leaves(manifest).filter(([path]) => !isUrlOrMode(path))).toEqual(
      leaves(source).filter(([path]) => !isUrlOrMode(path)),
    );
    expect(manifest.oauth_config.scopes.bot).toContain('chat:write');
    expect(manifest.features.slash_commands[0]?.command).toBe('/agent');
  });

  it('get-manifest wraps its answer in the boundary when the CLI asks for message boundaries', async () => {
    const { hooks } = await getHooks();
    const plain = await runHook(hooks['get-manifest'] as string);
    const bounded = await runHook(hooks['get-manifest'] as string, [
      '--protocol=message-boundaries',
      '--boundary=b0undary42',
    ]);
    expect(bounded.code).toBe(0);
    const match = /^b0undary42(.*)b0undary42\n$/s.exec(bounded.stdout);
    expect(match, bounded.stdout.slice(0, 200)).not.toBeNull();
    expect(JSON.parse(match?.[1] as string)).toEqual(JSON.parse(plain.stdout));
  });

  it('deploy says it does not apply and fails, pointing at compose', async () => {
    const { hooks } = await getHooks();
    const run = await runHook(hooks.deploy as string);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/does not apply/);
    expect(run.stderr).toMatch(/docker compose up/);
  });
});

describe('Slack CLI start hook (slack run)', () => {
  let sim: Simulator | undefined;
  let slack: SlackStandin | undefined;
  let hook: ChildProcess | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    if (hook && hook.exitCode === null) hook.kill('SIGKILL');
    await Promise.all([sim?.close(), slack?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the bot in Socket Mode with the tokens the CLI injects and .env for the rest; Ctrl-C stops it', async () => {
    // Only the CLI's tokens are accepted: a token from .env winning would fail auth.test.
    [sim, slack] = await Promise.all([
      startSimulator({ quiet: true, longPollMs: 300 }),
      startSlackStandin({ botToken: TEST_BOT_TOKEN, appToken: TEST_APP_TOKEN }),
    ]);
    // The CLI runs hooks in the project directory; a temporary one here, holding only a .env.
    dir = mkdtempSync(join(tmpdir(), 'sab-slack-run-'));
    writeFileSync(
      join(dir, '.env'),
      [
        `AGENT_API_URL=${sim.url}`,
        `AGENT_API_TOKEN=${SIM_TOKENS.agent}`,
        `AGENT_ID=${SIM_AGENTS.api}`,
        // The CLI's tokens win over a production token left in .env.
        'SLACK_BOT_TOKEN=xoxb-from-dotenv-must-not-win',
        '',
      ].join('\n'),
    );
    const { hooks } = await getHooks();
    const [, script] = (hooks.start as string).split(' ');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // What the Slack CLI sets for an SDK-managed connection.
      SLACK_CLI_XOXB: TEST_BOT_TOKEN,
      SLACK_CLI_XAPP: TEST_APP_TOKEN,
      SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
      SLACK_APP_TOKEN: TEST_APP_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    };
    const child = spawn(process.execPath, [join(ROOT, script as string)], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    hook = child;
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const standin = slack;
    try {
      // The first run may compile the bot (npm start's build-if-needed).
      await standin.socket.waitForConnection({ timeoutMs: 90_000 });
      const started = await waitUntil(
        () => output.split('\n').find((line) => line.includes('"slack-agent-bridge started"')),
        {
          timeoutMs: 10_000,
          description: 'the start log line',
        },
      );
      expect(JSON.parse(started).mode).toBe('socket');
      expect(standin.callCount('apps.connections.open')).toBeGreaterThanOrEqual(1);
      expect(standin.callCount('auth.test')).toBeGreaterThanOrEqual(1);

      const mention = mentionEvents(
        standin,
        `hello ${simDirective({ steps: 1, stepMs: 20, answer: 'From slack run.' })}`,
      );
      await standin.socket.send({ type: 'events_api', payload: eventCallback(mention.appMention) });
      await standin.waitFor(
        () => messagesOfType(standin, mention.channel, mention.threadTs, 'agent_answer').length > 0,
        { timeoutMs: 15_000, description: 'the answer in the thread' },
      );

      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) resolve(child.exitCode);
        else child.once('exit', (exitCode) => resolve(exitCode));
      });
      expect(code).toBe(0);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- hook output ---\n${output.slice(-4000)}`);
    }
  }, 150_000);
});
