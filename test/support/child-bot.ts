import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appMentionEvent,
  DEFAULT_BOT_USER_ID,
  eventCallback,
  messageEvent,
  type SlackStandin,
} from '../../dev/slack-standin/index.js';
import { TEST_SIGNING_SECRET } from './bridge-harness.js';
import { postEvent, type SlackPostResult } from './slack-events.js';

/**
 * The bot as a real child process (`node --import tsx src/main.ts`, the same entry point as
 * `npm start` without the build step), for tests that need a real exit code, real signals or
 * several replicas. `node --import tsx` keeps it one process, so SIGKILL really kills the bot
 * (`npx tsx` would put a wrapper process in between).
 */

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** tsx's loader by its full address: the child may run in a directory without node_modules. */
const TSX = import.meta.resolve('tsx');
/**
 * An empty directory the bots run in unless a test names another: the bot reads `.env` from its
 * working directory, and a developer's own `.env` in the repository must not leak into the tests.
 */
let emptyDirectory: string | undefined;
function defaultCwd(): string {
  emptyDirectory ??= mkdtempSync(path.join(os.tmpdir(), 'sab-child-bot-'));
  return emptyDirectory;
}

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A bot process, started or failing to start. */
export interface ChildBotProcess {
  readonly pid: number;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<ChildExit>;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** The JSON log lines on stdout, parsed (other lines skipped). */
  logs(): Array<Record<string, unknown>>;
  /** Sends `signal` (default SIGTERM) unless the process already exited; resolves with the exit. */
  kill(signal?: NodeJS.Signals): Promise<ChildExit>;
  /** stdout and stderr, for failure messages. */
  describe(): string;
}

/** A bot that reported itself started and answers /healthz. */
export interface ChildBot extends ChildBotProcess {
  readonly port: number;
  readonly url: string;
  readonly instanceId: string | undefined;
  /** A signed event_callback POST, as Slack delivers it (optionally a retry). */
  send(event: object, delivery?: { retryNum?: number; eventId?: string }): Promise<SlackPostResult>;
}

const running = new Set<ChildBotProcess>();

/** Variables the child needs to find node and tsx; nothing else leaks from the test's environment. */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'LANG'];
  const env: Record<string, string> = {};
  for (const name of keep) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * Starts `src/main.ts` with exactly `env` (plus PATH/HOME) in `options.cwd` (default: an empty
 * directory, so no `.env` is read); does not wait for anything.
 */
export function spawnBot(env: Record<string, string>, options: { cwd?: string } = {}): ChildBotProcess {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX, MAIN], {
    cwd: options.cwd ?? defaultCwd(),
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      err += `\n[spawn error] ${error.message}`;
      resolve({ code: null, signal: null });
    });
  });
  let done = false;
  const bot: ChildBotProcess = {
    pid: child.pid ?? -1,
    exited,
    stdout: () => out,
    stderr: () => err,
    logs: () => parseLogLines(out),
    async kill(signal = 'SIGTERM') {
      if (!done) child.kill(signal);
      return exited;
    },
    describe: () => `--- stdout ---\n${out.slice(-4000)}\n--- stderr ---\n${err.slice(-4000)}`,
  };
  running.add(bot);
  void exited.then(() => {
    done = true;
    running.delete(bot);
  });
  return bot;
}

/**
 * Mentions `bot` with `text` (app_mention and message, as Slack sends them) and waits for its one
 * answer in the thread; a timeout carries what the bot printed.
 */
export async function askAndWaitForAnswer(
  slack: SlackStandin,
  bot: ChildBot,
  text: string,
  timeoutMs = 15_000,
): Promise<{ channel: string; threadTs: string }> {
  const mention = mentionEvents(slack, text);
  await Promise.all([bot.send(mention.appMention), bot.send(mention.message)]);
  await withBotOutput(
    slack.waitFor(
      () => messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer').length === 1,
      {
        timeoutMs,
        description: 'the answer',
      },
    ),
    bot,
  );
  return mention;
}

/** Starts a bot that must fail at start-up; resolves with all it printed once it exited 1. */
export async function failedStartOutput(env: Record<string, string>): Promise<string> {
  const bot = spawnBot(env);
  const exit = await bot.exited;
  if (exit.code !== 1) throw new Error(`expected exit 1, got ${exit.code ?? exit.signal}\n${bot.describe()}`);
  return `${bot.stdout()}\n${bot.stderr()}`;
}

function parseLogLines(text: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut mid-write (the process was killed): not a log record.
    }
  }
  return lines;
}

/** Polls `probe` every `intervalMs` until it returns a truthy value; rejects after `timeoutMs`. */
export async function waitUntil<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: { timeoutMs?: number; intervalMs?: number; description?: string } = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50, description = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

async function healthz(url: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

/**
 * Starts the bot and waits until it logged `slack-agent-bridge started` (whose `port` tells where it
 * listens: the env should say PORT=0) and /healthz answers 200. LOG_LEVEL defaults to info here, as
 * the start line is read from the log. Rejects, with the child's output, if it exits or times out.
 */
export async function startChildBot(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; cwd?: string } = {},
): Promise<ChildBot> {
  const bot = spawnBot(
    { ...env, LOG_LEVEL: env.LOG_LEVEL === 'silent' ? 'info' : (env.LOG_LEVEL ?? 'info') },
    { cwd: options.cwd },
  );
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  let exitedEarly: ChildExit | undefined;
  void bot.exited.then((exit) => {
    exitedEarly = exit;
  });
  try {
    const started = await waitUntil(
      () => {
        if (exitedEarly) throw new Error(`the bot exited before it started (${JSON.stringify(exitedEarly)})`);
        return bot.logs().find((line) => line.msg === 'slack-agent-bridge started');
      },
      { timeoutMs: readyTimeoutMs, description: 'the start log line' },
    );
    const port = Number(started.port);
    const url = `http://127.0.0.1:${port}`;
    await waitUntil(async () => (await healthz(url)) === 200, {
      timeoutMs: 5_000,
      description: '/healthz 200',
    });
    return {
      ...bot,
      port,
      url,
      instanceId: env.INSTANCE_ID,
      send: (event, delivery = {}) =>
        postEvent(url, TEST_SIGNING_SECRET, eventCallback(event as never, { eventId: delivery.eventId }), {
          retryNum: delivery.retryNum,
        }),
    };
  } catch (error) {
    await bot.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${bot.describe()}`);
  }
}

/** SIGKILLs every child bot still running (call from afterEach, so a failed test leaves none behind). */
export async function killAllChildBots(): Promise<void> {
  await Promise.all([...running].map((bot) => bot.kill('SIGKILL')));
}

// A crashed or interrupted test run must not leave bots behind.
process.once('exit', () => {
  for (const bot of running) {
    try {
      process.kill(bot.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

/** A person mentions the bot: records the message in the stand-in and builds both events Slack sends. */
export function mentionEvents(
  slack: SlackStandin,
  text: string,
  where: { channel?: string; user?: string; threadTs?: string } = {},
) {
  const channel = where.channel ?? 'C0GENERAL';
  const user = where.user ?? 'UALICE';
  const full = `<@${DEFAULT_BOT_USER_ID}> ${text}`;
  const stored = slack.recordUserMessage({ channel, user, text: full, thread_ts: where.threadTs });
  const base = { channel, user, text: full, ts: stored.ts, thread_ts: where.threadTs };
  return {
    channel,
    ts: stored.ts,
    threadTs: where.threadTs ?? stored.ts,
    appMention: appMentionEvent(base),
    message: messageEvent(base),
  };
}

/** A reply in a thread without a mention: records it and builds its `message` event. */
export function replyEvent(
  slack: SlackStandin,
  text: string,
  where: { channel?: string; user?: string; threadTs: string },
) {
  const channel = where.channel ?? 'C0GENERAL';
  const user = where.user ?? 'UALICE';
  const stored = slack.recordUserMessage({ channel, user, text, thread_ts: where.threadTs });
  return {
    channel,
    ts: stored.ts,
    threadTs: where.threadTs,
    message: messageEvent({ channel, user, text, ts: stored.ts, thread_ts: where.threadTs }),
  };
}

/** The thread's messages whose metadata says `eventType` (agent_answer, agent_notice, agent_progress). */
export function messagesOfType(slack: SlackStandin, channel: string, threadTs: string, eventType: string) {
  return slack.messages(channel, threadTs).filter((message) => message.metadata?.event_type === eventType);
}

/** Awaits `promise`; when it rejects, the error carries the bots' output (what they logged is the clue). */
export async function withBotOutput<T>(promise: Promise<T>, ...bots: ChildBotProcess[]): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const output = bots.map((bot) => `=== bot pid ${bot.pid} ===\n${bot.describe()}`).join('\n');
    throw new Error(`${(error as Error).message}\n${output}`);
  }
}
