/**
 * `npm run bench [-- --sizes 100,1000,5000]`: the bot under N concurrent agent runs, on loopback.
 * Processes: the simulator + Slack stand-in (stand-ins.ts), the bot (compiled, a fresh process per
 * size), a bare Bolt app as the ack baseline (bare-bolt.ts), and two load generators (load.ts: one
 * posts the mentions, one probes ack latency). Prints a table and the targets, writes
 * bench/results.json. Every size has a timeout, and the whole run is bounded too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { localBotEnv } from '../dev/local-stack/bot-env.js';
import { formatHeap } from './heap-snapshot.js';
import { forkTs, killAll, nextMessage, stopChild } from './processes.js';
import {
  BENCH_CHANNELS,
  BENCH_LONG_POLL_MS,
  BENCH_SCRIPT,
  BENCH_SIGNING_SECRET,
  type LoadReply,
} from './protocol.js';
import { runReplicaSizes } from './replicas.js';
import { evaluate, formatChecks, formatTable, machineInfo, REPLICA_NOTE, type SizeResult } from './report.js';
import { MENTION_CONCURRENCY, MENTION_RATE, PROBE_INTERVAL_MS, runSize, type Shared } from './size-run.js';
import { formatSlackCalls, measureSlackCalls, type SlackCallsPerTurn } from './slack-calls.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
/** Each runtime's sizes stop here, whatever is left (the bound is 5 minutes). */
const TOTAL_BUDGET_MS = 280_000;
/** `--timeout-scale` stretches every size's timeout (a busy machine); the 5-minute bound stays. */
let timeoutScale = 1;
/** `--bot-env KEY=VALUE` settings laid over the bot's environment (an A/B of one setting). */
let extraBotEnv: Record<string, string> = {};
const sizeTimeoutMs = (size: number) => (20_000 + size * 8) * timeoutScale;

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
  return localBotEnv(
    { simUrl, slackApiUrl, signingSecret: BENCH_SIGNING_SECRET },
    {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // Every bench mention comes from one person: the per-person limit would refuse all but 30.
      RUNS_PER_PERSON_PER_HOUR: '0',
      ...extraBotEnv,
    },
  );
}

/** Turns per progress style when counting Slack calls per turn. */
const CALLS_TURNS = 50;

interface Options {
  sizes: number[];
  profileDir: string | undefined;
  /** Node binaries to run the bot and the bare Bolt app on, one table each. */
  runtimes: string[];
  /** Only count Slack calls per turn for both progress styles, then stop. */
  callsOnly: boolean;
  /** Skip counting them (quicker A/B runs; results.json then has no `slackCallsPerTurn`). */
  skipCalls: boolean;
  /** Heap snapshots of the bot per size (bytes per run in flight); they pause it, so latencies suffer. */
  heap: boolean;
  /** No bare-stack (floor) run after each size: quicker, but no CPU ratio. */
  skipFloor: boolean;
  /** Above 1: that many replicas on one Redis sharing the account budget (bench/replicas.ts). */
  replicas: number;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '100,1000,5000' },
      profile: { type: 'string' },
      'calls-only': { type: 'boolean', default: false },
      'skip-calls': { type: 'boolean', default: false },
      heap: { type: 'boolean', default: false },
      'skip-floor': { type: 'boolean', default: false },
      node: { type: 'string', default: 'current' },
      'timeout-scale': { type: 'string', default: '1' },
      replicas: { type: 'string', default: '1' },
      'bot-env': { type: 'string', multiple: true, default: [] },
    },
  });
  const replicas = Number(values.replicas);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 8) {
    throw new Error(`--replicas must be an integer in 1..8, not "${values.replicas}"`);
  }
  const sizes = values.sizes.split(',').map((item) => Number(item.trim()));
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 20_000)) {
    throw new Error(`--sizes must be a comma-separated list of integers in 1..20000, not "${values.sizes}"`);
  }
  const scale = Number(values['timeout-scale']);
  if (!(scale >= 1 && scale <= 10)) throw new Error(`--timeout-scale must be in 1..10, not "${scale}"`);
  timeoutScale = scale;
  extraBotEnv = Object.fromEntries(
    values['bot-env'].map((pair) => {
      const match = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(pair);
      if (!match) throw new Error(`--bot-env takes KEY=VALUE (an upper-case variable name), not "${pair}"`);
      return [match[1] as string, match[2] as string];
    }),
  );
  const runtimes = values.node.split(',').map((item) => resolveNode(item.trim()));
  if (values['calls-only'] && values['skip-calls'])
    throw new Error('--calls-only and --skip-calls exclude each other');
  return {
    sizes,
    profileDir: values.profile,
    runtimes,
    callsOnly: values['calls-only'],
    skipCalls: values['skip-calls'],
    heap: values.heap,
    skipFloor: values['skip-floor'],
    replicas,
  };
}

/**
 * `current` is this Node; a major version ("24") is this Node when it matches, else the `node`
 * package of that major from the npm registry (through npx, cached after the first run); anything
 * else is the path of a Node binary.
 */
function resolveNode(spec: string): string {
  if (spec === 'current' || spec === process.versions.node.split('.')[0]) return process.execPath;
  if (!/^\d+$/.test(spec)) return spec;
  const found = spawnSync('npx', ['-y', '-p', `node@${spec}`, 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  const path = found.stdout?.trim().split('\n').at(-1) ?? '';
  if (found.status !== 0 || path === '') {
    throw new Error(`could not get Node ${spec} from the npm registry: ${found.stderr?.trim() ?? ''}`);
  }
  return path;
}

function nodeVersion(node: string): string {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'unknown';
}

/** Every size on one runtime: the bare Bolt app runs on it too, so the ack baseline is its own. */
async function runRuntime(
  node: string,
  sizes: number[],
  bot: Shared['bot'],
  load: Pick<Shared, 'mentioner' | 'prober' | 'heap' | 'skipFloor' | 'profileDir'>,
) {
  const version = nodeVersion(node);
  const started = Date.now();
  const bareChild = forkTs(join(here, 'bare-bolt.ts'), node);
  try {
    const bare = await nextMessage<{ type: 'ready'; url: string }>(bareChild, 'ready', 30_000);
    const shared: Shared = {
      bare: bare.url,
      bareChild,
      ...load,
      bot,
      node,
      botEnv,
      timeoutMs: sizeTimeoutMs,
    };
    const results: SizeResult[] = [];
    for (const size of sizes) {
      const left = TOTAL_BUDGET_MS * timeoutScale - (Date.now() - started);
      if (left < sizeTimeoutMs(size) / 2) {
        log(
          `bench: skipping ${size} runs on Node ${version}: ${Math.round(left / 1000)} s left of the time budget`,
        );
        continue;
      }
      log(`bench: Node ${version}, ${size} concurrent runs…`);
      const result = await runSize(shared, size);
      results.push(result);
      log(formatTable([result]).split('\n')[1] ?? '');
    }
    return { node: version, results, targets: evaluate(results, version) };
  } finally {
    await stopChild(bareChild);
  }
}

/** Slack calls per turn with the native status and with progress messages (both at default settings). */
async function slackCallsPerTurn(
  bot: Shared['bot'],
  mentioner: Shared['mentioner'],
): Promise<SlackCallsPerTurn[]> {
  const deps = {
    here,
    forkTs,
    botArgs: bot.args,
    botEnv,
    mentioner,
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
  const { sizes, profileDir, runtimes, callsOnly, skipCalls, heap, skipFloor, replicas } = parseOptions();
  const benchStarted = Date.now();
  // Each runtime has the budget (times --timeout-scale); this is the last resort for the whole run.
  const guard = setTimeout(
    () => {
      process.stderr.write('bench: over the time budget; stopping everything\n');
      killAll();
      process.exit(1);
    },
    runtimes.length * (TOTAL_BUDGET_MS * timeoutScale + 15_000) + 60_000,
  );
  guard.unref();
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
  const mentioner = forkTs(join(here, 'load.ts'));
  const prober = forkTs(join(here, 'load.ts'));
  await Promise.all([
    nextMessage<LoadReply>(mentioner, 'ready', 30_000),
    nextMessage<LoadReply>(prober, 'ready', 30_000),
  ]);

  if (replicas > 1) {
    const deps = { here, node: runtimes[0] ?? process.execPath, botArgs: bot.args, botEnv, mentioner, log };
    const mention = { ratePerSecond: MENTION_RATE, concurrency: MENTION_CONCURRENCY };
    await runReplicaSizes({ ...deps, mention, timeoutMs: sizeTimeoutMs }, replicas, sizes);
    return;
  }
  const slackCalls = skipCalls ? [] : await slackCallsPerTurn(bot, mentioner);
  if (!skipCalls) log(formatSlackCalls(slackCalls));
  if (callsOnly) return;

  const perRuntime = [];
  for (const node of runtimes)
    perRuntime.push(await runRuntime(node, sizes, bot, { mentioner, prober, heap, skipFloor, profileDir }));

  for (const runtime of perRuntime) {
    log('');
    log(`Node ${runtime.node}`);
    log(formatTable(runtime.results));
    log('');
    log(formatChecks(runtime.targets));
    const heapRows = runtime.results.flatMap((result) =>
      result.heap ? [{ size: result.size, heap: result.heap }] : [],
    );
    if (heapRows.length > 0) {
      log('');
      log(
        "Heap (live objects in V8 snapshots; the snapshots paused the bot, so this table's latencies are not comparable):",
      );
      log(formatHeap(heapRows));
    }
  }
  log('');
  log(REPLICA_NOTE);
  if (!skipCalls) {
    log('');
    log(formatSlackCalls(slackCalls));
  }
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
      timeoutScale,
      botRuntime: bot.runtime,
      botEnvironment:
        'HTTP mode, memory store, LOG_LEVEL=warn, RUNS_PER_PERSON_PER_HOUR=0' +
        Object.entries(extraBotEnv)
          .map(([key, value]) => `, ${key}=${value}`)
          .join('') +
        ', every other setting at its default',
    },
    runtimes: perRuntime,
    ...(skipCalls ? {} : { slackCallsPerTurn: slackCalls }),
    replicas: REPLICA_NOTE,
    seconds: Math.round((Date.now() - benchStarted) / 100) / 10,
  };
  const file = join(here, 'results.json');
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  log(`\nbench: wrote ${file} in ${output.seconds} s`);
}

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
