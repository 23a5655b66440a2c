/**
 * `npm run bench [-- --sizes 100,1000,5000]`: the bot under N concurrent agent runs, on loopback.
 * Processes: the simulator + Slack stand-in (stand-ins.ts), the bot (compiled, a fresh process per
 * size), a bare Bolt app as the ack baseline (bare-bolt.ts), and two load generators (load.ts: one
 * posts the mentions, one probes ack latency). Prints a table and the targets, writes
 * bench/results.json. Every size has a timeout, and the whole run is bounded too.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { TEST_BOT_TOKEN } from '../src/sandbox/slack-standin/defaults.js';
import { SIM_AGENTS, SIM_TOKENS } from '../src/simulator/index.js';
import {
  forkTs,
  freePort,
  killAll,
  nextMessage,
  processUsage,
  spawnNode,
  stopChild,
  waitHealthy,
} from './processes.js';
import {
  BENCH_CHANNELS,
  BENCH_LONG_POLL_MS,
  BENCH_SCRIPT,
  BENCH_SIGNING_SECRET,
  type LoadReply,
  type LoadRequest,
  type StandInsReply,
  type StandInsRequest,
} from './protocol.js';
import { evaluate, formatChecks, formatTable, machineInfo, REPLICA_NOTE, type SizeResult } from './report.js';
import { formatSlackCalls, measureSlackCalls, type SlackCallsPerTurn } from './slack-calls.js';
import { round, summarise } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
/** Mentions per second at most, and posts in flight at most: 5,000 runs start within ~5 s. */
const MENTION_RATE = 1_000;
const MENTION_CONCURRENCY = 32;
/** Real runs answered before measuring, so the bot is not measured cold. */
const WARM_UP_RUNS = 50;
/** One probe every 10 ms, alternating between the bot and the bare app. */
const PROBE_INTERVAL_MS = 10;
/** The whole bench stops here, whatever is left (the bound is 5 minutes). */
const TOTAL_BUDGET_MS = 280_000;
const sizeTimeoutMs = (size: number) => 20_000 + size * 8;

type Child = ChildProcess;
const send = <T>(child: Child, message: T) => child.send(message as object);

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * Compiles the bot as `npm run build` does, into bench/tmp/build (git-ignored), so a clean or
 * rebuild of dist/ during a run cannot pull the JavaScript from under it. If the build fails
 * the bot runs from its TypeScript through tsx, and results.json says so.
 */
function botEntry(): { args: string[]; runtime: 'compiled' | 'tsx' } {
  const outDir = join(here, 'tmp', 'build');
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], {
    cwd: root,
    stdio: 'inherit',
    timeout: 120_000,
  });
  const main = join(outDir, 'src', 'main.js');
  if (build.status === 0 && existsSync(main)) return { args: [main], runtime: 'compiled' };
  log('bench: build failed; running the bot through tsx instead');
  return { args: ['--import', 'tsx', join(root, 'src', 'main.ts')], runtime: 'tsx' };
}

function botEnv(simUrl: string, slackApiUrl: string, port: number): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    SLACK_BOT_TOKEN: TEST_BOT_TOKEN,
    SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
    SLACK_API_URL: slackApiUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    AGENT_API_URL: simUrl,
    AGENT_API_TOKEN: SIM_TOKENS.agent,
    AGENT_ID: SIM_AGENTS.api,
    LOG_LEVEL: 'warn',
  };
}

interface Shared {
  bare: string;
  bareChild: Child;
  mentioner: Child;
  prober: Child;
  bot: { args: string[]; runtime: string };
}

/** Answers the stand-ins have seen so far (warm-up included). */
async function answerCount(standIns: ChildProcess): Promise<number> {
  const reply = nextMessage<Extract<StandInsReply, { type: 'answers' }>>(standIns, 'answers', 10_000);
  send<StandInsRequest>(standIns, { type: 'answers' });
  return (await reply).count;
}

/**
 * Neither app is measured cold: both are probed for a moment, and the bot answers a small batch
 * of real runs first, so its code paths are compiled as in a bot that has been up for a while.
 * Returns how many answers the warm-up produced.
 */
async function warmUp(shared: Shared, botUrl: string, standIns: ChildProcess): Promise<number> {
  const probe: LoadRequest = { type: 'probe', targets: { bot: botUrl, bare: shared.bare }, intervalMs: 2 };
  send(shared.prober, probe);
  const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(shared.mentioner, 'posted', 30_000);
  send<LoadRequest>(shared.mentioner, {
    type: 'mentions',
    appUrl: botUrl,
    size: WARM_UP_RUNS,
    ratePerSecond: MENTION_RATE,
    concurrency: MENTION_CONCURRENCY,
  });
  await posted;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await answerCount(standIns)) < WARM_UP_RUNS) await sleep(100);
  const done = nextMessage<Extract<LoadReply, { type: 'probes' }>>(shared.prober, 'probes', 10_000);
  send<LoadRequest>(shared.prober, { type: 'stop-probe' });
  await done;
  // A fresh second for the measured batch's thread timestamps.
  await sleep(1_000);
  return answerCount(standIns);
}

async function runSize(shared: Shared, size: number): Promise<SizeResult> {
  const standIns = forkTs(join(here, 'stand-ins.ts'));
  try {
    const urls = await nextMessage<Extract<StandInsReply, { type: 'ready' }>>(standIns, 'ready', 30_000);
    const port = await freePort();
    const env = botEnv(urls.simUrl, urls.slackApiUrl, port);
    const config = loadConfig(env);
    const pollSlots = Math.max(1, Math.floor(config.agent.maxInFlight * config.agent.pollShare));
    const { child: bot, tail } = spawnNode(shared.bot.args, env);
    try {
      const botUrl = `http://127.0.0.1:${port}`;
      await waitHealthy(`${botUrl}/healthz`, bot, 30_000).catch((error: unknown) => {
        throw new Error(`bot did not start: ${String(error)}\n${tail.lines.join('\n')}`);
      });
      const warmAnswers = await warmUp(shared, botUrl, standIns);
      const before = processUsage(bot.pid);
      const others = {
        standIns: standIns.pid,
        bare: shared.bareChild.pid,
        mentioner: shared.mentioner.pid,
        prober: shared.prober.pid,
      };
      const othersBefore = cpuOf(others);
      const started = performance.now();
      const deadline = Date.now() + sizeTimeoutMs(size);

      send<LoadRequest>(shared.prober, {
        type: 'probe',
        targets: { bot: botUrl, bare: shared.bare },
        intervalMs: PROBE_INTERVAL_MS,
      });
      const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(
        shared.mentioner,
        'posted',
        sizeTimeoutMs(size),
      );
      send<LoadRequest>(shared.mentioner, {
        type: 'mentions',
        appUrl: botUrl,
        size,
        ratePerSecond: MENTION_RATE,
        concurrency: MENTION_CONCURRENCY,
      });
      let answers = 0;
      while (Date.now() < deadline) {
        answers = (await answerCount(standIns)) - warmAnswers;
        if (answers >= size) break;
        await sleep(100);
      }
      const durationSeconds = (performance.now() - started) / 1000;
      const probes = nextMessage<Extract<LoadReply, { type: 'probes' }>>(shared.prober, 'probes', 10_000);
      send<LoadRequest>(shared.prober, { type: 'stop-probe' });
      const ack = await probes;
      const usage = processUsage(bot.pid);
      const othersAfter = cpuOf(others);
      const mentions = await posted;

      const reportReply = nextMessage<Extract<StandInsReply, { type: 'report' }>>(standIns, 'report', 30_000);
      send<StandInsRequest>(standIns, { type: 'report', mentions: mentions.mentions });
      const service = (await reportReply).report;
      await stopChild(bot);
      return {
        size,
        complete: answers >= size,
        durationSeconds,
        postSeconds: mentions.seconds,
        mentionAckMs: mentions.ackMs,
        mentionsFailed: mentions.failed,
        ack: {
          bot: summarise(ack.bot),
          bare: summarise(ack.bare),
          samples: { bot: ack.bot.length, bare: ack.bare.length },
          failed: ack.failed,
        },
        service,
        pollSlots,
        // The simulator's clock has 1 ms resolution: an instant answer counts as 1 ms, not 0.
        budgetLimitMs: (size / pollSlots) * Math.max(1, service.statusMedianMs),
        otherCpuSeconds: Object.fromEntries(
          Object.entries(othersAfter).map(([name, cpu]) => [name, round(cpu - (othersBefore[name] ?? 0), 2)]),
        ),
        bot: usage && {
          rssBeforeMb: before?.rssMb ?? 0,
          peakRssMb: usage.peakRssMb,
          cpuSeconds: usage.cpuSeconds - (before?.cpuSeconds ?? 0),
          cpuSecondsTotal: usage.cpuSeconds,
          logLines: tail.count,
        },
      };
    } finally {
      await stopChild(bot);
    }
  } finally {
    await stopChild(standIns);
  }
}

/** CPU seconds so far of each named process (the other processes of the bench, for context). */
function cpuOf(pids: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, processUsage(pid)?.cpuSeconds ?? 0]),
  );
}

/** Turns per progress style when counting Slack calls per turn. */
const CALLS_TURNS = 50;

function parseOptions(): { sizes: number[]; profileDir: string | undefined; callsOnly: boolean } {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '100,1000,5000' },
      profile: { type: 'string' },
      'calls-only': { type: 'boolean', default: false },
    },
  });
  const sizes = values.sizes.split(',').map((item) => Number(item.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 20_000)) {
    throw new Error(`--sizes must be a comma-separated list of integers in 1..20000, not "${values.sizes}"`);
  }
  return { sizes, profileDir: values.profile, callsOnly: values['calls-only'] };
}

/** Slack calls per turn with the native status and with progress messages (both at default settings). */
async function slackCallsPerTurn(shared: Shared): Promise<SlackCallsPerTurn[]> {
  const deps = {
    here,
    forkTs,
    botArgs: shared.bot.args,
    botEnv,
    mentioner: shared.mentioner,
    turns: CALLS_TURNS,
  };
  const results: SlackCallsPerTurn[] = [];
  for (const style of ['status', 'message'] as const) {
    log(`bench: Slack calls per turn, PROGRESS_STYLE=${style} (${CALLS_TURNS} turns)…`);
    results.push(await measureSlackCalls(deps, style));
  }
  return results;
}

async function main(): Promise<void> {
  const { sizes, profileDir, callsOnly } = parseOptions();
  const benchStarted = Date.now();
  const machine = machineInfo();
  if (machine.loadAverageAtStart > machine.cpus / 2) {
    log(
      `bench: warning: load average ${machine.loadAverageAtStart} on ${machine.cpus} CPUs: other work will skew the figures`,
    );
  }
  const entry = botEntry();
  // --profile DIR: a V8 CPU profile of each bot process (open it in Chrome DevTools).
  const bot = profileDir
    ? { ...entry, args: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, ...entry.args] }
    : entry;
  const bareChild = forkTs(join(here, 'bare-bolt.ts'));
  const mentioner = forkTs(join(here, 'load.ts'));
  const prober = forkTs(join(here, 'load.ts'));
  const [bare] = await Promise.all([
    nextMessage<{ type: 'ready'; url: string }>(bareChild, 'ready', 30_000),
    nextMessage<LoadReply>(mentioner, 'ready', 30_000),
    nextMessage<LoadReply>(prober, 'ready', 30_000),
  ]);
  const shared: Shared = { bare: bare.url, bareChild, mentioner, prober, bot };

  const slackCalls = await slackCallsPerTurn(shared);
  log(formatSlackCalls(slackCalls));
  if (callsOnly) return;

  const results: SizeResult[] = [];
  for (const size of sizes) {
    const left = TOTAL_BUDGET_MS - (Date.now() - benchStarted);
    if (left < sizeTimeoutMs(size) / 2) {
      log(`bench: skipping ${size} runs: ${Math.round(left / 1000)} s left of the time budget`);
      continue;
    }
    log(`bench: ${size} concurrent runs…`);
    const result = await runSize(shared, size);
    results.push(result);
    log(formatTable([result]).split('\n')[1] ?? '');
  }

  const checks = evaluate(results);
  log('');
  log(formatTable(results));
  log('');
  log(formatChecks(checks));
  log('');
  log(REPLICA_NOTE);
  log('');
  log(formatSlackCalls(slackCalls));
  const output = {
    date: new Date().toISOString(),
    machine,
    parameters: {
      longPollMs: BENCH_LONG_POLL_MS,
      script: BENCH_SCRIPT,
      channels: BENCH_CHANNELS,
      mentionRatePerSecond: MENTION_RATE,
      mentionConcurrency: MENTION_CONCURRENCY,
      probeIntervalMs: PROBE_INTERVAL_MS,
      botRuntime: bot.runtime,
      botEnvironment: 'HTTP mode, memory store, LOG_LEVEL=warn, every other setting at its default',
    },
    results,
    slackCallsPerTurn: slackCalls,
    targets: checks,
    replicas: REPLICA_NOTE,
    seconds: Math.round((Date.now() - benchStarted) / 100) / 10,
  };
  const file = join(here, 'results.json');
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  log(`\nbench: wrote ${file} in ${output.seconds} s`);
}

const guard = setTimeout(() => {
  process.stderr.write('bench: over the time budget; stopping everything\n');
  killAll();
  process.exit(1);
}, TOTAL_BUDGET_MS + 15_000);
guard.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.once('exit', killAll);

main()
  .then(() => {
    killAll();
    process.exit(0);
  })
  .catch((error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    killAll();
    process.exit(1);
  });
