/**
 * `npm run bench -- --replicas 2 [--sizes 200]`: several replicas of the bot on one Redis (a
 * redis-server of the bench's own on a free loopback port), sharing the account's request budget
 * (AGENT_ACCOUNT_CONCURRENCY, default 100) through it. The mentions alternate between the replicas;
 * per replica the bench reports the ack latency of its mentions, the delivery latency of their
 * answers (whichever replica delivered them), its CPU and memory; for all, the most requests the
 * service saw in flight at once — at most the account's budget, whatever the number of replicas.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  forkTs,
  freePort,
  nextMessage,
  processUsage,
  spawnNode,
  stopChild,
  waitHealthy,
} from './processes.js';
import type {
  LatencySummary,
  LoadReply,
  LoadRequest,
  MentionRef,
  StandInsReply,
  StandInsRequest,
} from './protocol.js';
import { machineInfo } from './report.js';

export interface ReplicaRow {
  replica: string;
  mentions: number;
  ackMs: LatencySummary | undefined;
  deliveryMs: LatencySummary;
  unmatched: number;
  cpuSeconds: number;
  peakRssMb: number;
}

export interface ReplicasResult {
  replicas: number;
  size: number;
  complete: boolean;
  durationSeconds: number;
  accountConcurrency: number;
  /** Most service requests in flight at once, from every replica together. */
  maxInFlightSeen: number;
  status429: number;
  mentionsFailed: number;
  perReplica: ReplicaRow[];
}

export interface ReplicasDeps {
  here: string;
  node: string;
  botArgs: string[];
  botEnv: (simUrl: string, slackApiUrl: string, port: number) => Record<string, string>;
  mentioner: ChildProcess;
  timeoutMs: number;
  mention: { ratePerSecond: number; concurrency: number };
}

const ACCOUNT_CONCURRENCY = 100;

/** A redis-server of the bench's own: no persistence, loopback, a free port. */
async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'sab-bench-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const progressOf = async (standIns: ChildProcess) => {
  const reply = nextMessage<Extract<StandInsReply, { type: 'answers' }>>(standIns, 'answers', 10_000);
  standIns.send({ type: 'answers' } satisfies StandInsRequest);
  return (await reply).count;
};

const reportOf = async (standIns: ChildProcess, mentions: MentionRef[]) => {
  const reply = nextMessage<Extract<StandInsReply, { type: 'report' }>>(standIns, 'report', 30_000);
  standIns.send({ type: 'report', mentions } satisfies StandInsRequest);
  return (await reply).report;
};

/** Posts `size` mentions over the replicas and waits for their answers (or the deadline). */
async function mentionAndWait(deps: ReplicasDeps, standIns: ChildProcess, urls: string[], size: number) {
  const before = await progressOf(standIns);
  const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(
    deps.mentioner,
    'posted',
    deps.timeoutMs,
  );
  const request: LoadRequest = {
    type: 'mentions',
    appUrl: urls[0] ?? '',
    appUrls: urls,
    size,
    ...deps.mention,
  };
  deps.mentioner.send(request);
  const deadline = Date.now() + deps.timeoutMs;
  let answered = 0;
  while (Date.now() < deadline && answered < size) {
    await sleep(100);
    answered = (await progressOf(standIns)) - before;
  }
  return { posted: await posted, complete: answered >= size };
}

/** Starts `replicas` bot processes on `redisUrl`; resolves with their URLs once each is healthy. */
async function startBots(
  deps: ReplicasDeps,
  ready: { simUrl: string; slackApiUrl: string },
  redisUrl: string,
  replicas: number,
  bots: ChildProcess[],
): Promise<string[]> {
  const urls: string[] = [];
  for (let index = 1; index <= replicas; index += 1) {
    const port = await freePort();
    const env = {
      ...deps.botEnv(ready.simUrl, ready.slackApiUrl, port),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench-${process.pid}`,
      INSTANCE_ID: `bench-replica-${index}`,
      AGENT_ACCOUNT_CONCURRENCY: String(ACCOUNT_CONCURRENCY),
    };
    const { child, tail } = spawnNode(deps.botArgs, env, deps.node);
    bots.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitHealthy(`${url}/healthz`, child, 30_000).catch((error: unknown) => {
      throw new Error(`replica ${index} did not start: ${String(error)}\n${tail.lines.join('\n')}`);
    });
    urls.push(url);
  }
  return urls;
}

/** Each replica's row: its mentions' acks and deliveries, its CPU since `cpuBefore`, its peak RSS. */
async function rowsOf(
  standIns: ChildProcess,
  bots: ChildProcess[],
  posted: Extract<LoadReply, { type: 'posted' }>,
  cpuBefore: number[],
): Promise<ReplicaRow[]> {
  const rows: ReplicaRow[] = [];
  for (const [index, bot] of bots.entries()) {
    const own = posted.mentions.filter((_, i) => i % bots.length === index);
    const report = await reportOf(standIns, own);
    const usage = processUsage(bot.pid);
    rows.push({
      replica: `bench-replica-${index + 1}`,
      mentions: own.length,
      ackMs: posted.ackMsPerApp?.[index],
      deliveryMs: report.deliveryMs,
      unmatched: report.unmatched,
      cpuSeconds: Math.round(((usage?.cpuSeconds ?? 0) - (cpuBefore[index] ?? 0)) * 100) / 100,
      peakRssMb: Math.round((usage?.peakRssMb ?? 0) * 10) / 10,
    });
  }
  return rows;
}

/** One size on `replicas` bot processes sharing a Redis. */
export async function runReplicas(
  deps: ReplicasDeps,
  replicas: number,
  size: number,
): Promise<ReplicasResult> {
  const redis = await startRedis();
  const standIns = forkTs(join(deps.here, 'stand-ins.ts'));
  const bots: ChildProcess[] = [];
  try {
    const ready = await nextMessage<Extract<StandInsReply, { type: 'ready' }>>(standIns, 'ready', 30_000);
    const urls = await startBots(deps, ready, redis.url, replicas, bots);
    // Warm-up: every replica answers a few runs before the measured batch, then a fresh second.
    await mentionAndWait(deps, standIns, urls, 10 * replicas);
    await sleep(1_000);
    const cpuBefore = bots.map((bot) => processUsage(bot.pid)?.cpuSeconds ?? 0);
    const started = performance.now();
    const { posted, complete } = await mentionAndWait(deps, standIns, urls, size);
    const durationSeconds = (performance.now() - started) / 1000;
    const all = await reportOf(standIns, posted.mentions);
    return {
      replicas,
      size,
      complete,
      durationSeconds: Math.round(durationSeconds * 10) / 10,
      accountConcurrency: ACCOUNT_CONCURRENCY,
      maxInFlightSeen: all.maxInFlightSeen,
      status429: all.status429,
      mentionsFailed: posted.failed,
      perReplica: await rowsOf(standIns, bots, posted, cpuBefore),
    };
  } finally {
    await Promise.all(bots.map((bot) => stopChild(bot)));
    await stopChild(standIns);
    await redis.stop();
  }
}

/** The per-replica table. */
export function formatReplicas(result: ReplicasResult): string {
  const ms = (summary: LatencySummary | undefined) =>
    summary ? `${Math.round(summary.p50)} / ${Math.round(summary.p99)}` : '-';
  const header = `| replica | mentions | ack p50 / p99 ms | delivery p50 / p99 ms | unanswered | CPU s | peak RSS MB |`;
  const rows = result.perReplica.map(
    (row) =>
      `| ${row.replica} | ${row.mentions} | ${ms(row.ackMs)} | ${ms(row.deliveryMs)} | ${row.unmatched} | ${row.cpuSeconds} | ${row.peakRssMb} |`,
  );
  const summary =
    `${result.size} runs over ${result.replicas} replicas on one Redis in ${result.durationSeconds} s` +
    `${result.complete ? '' : ' (INCOMPLETE)'}; service requests in flight at most ${result.maxInFlightSeen} ` +
    `(AGENT_ACCOUNT_CONCURRENCY=${result.accountConcurrency}), 429s: ${result.status429}, mentions not acked: ${result.mentionsFailed}`;
  return [header, '|---|---|---|---|---|---|---|', ...rows, '', summary].join('\n');
}

/** Every size on `replicas` replicas; prints each table and writes bench/results-replicas.json. */
export async function runReplicaSizes(
  deps: Omit<ReplicasDeps, 'timeoutMs'> & {
    timeoutMs: (size: number) => number;
    log: (line: string) => void;
  },
  replicas: number,
  sizes: number[],
): Promise<void> {
  const results: ReplicasResult[] = [];
  for (const size of sizes) {
    deps.log(`bench: ${size} concurrent runs over ${replicas} replicas on Redis…`);
    const result = await runReplicas({ ...deps, timeoutMs: deps.timeoutMs(size) }, replicas, size);
    results.push(result);
    deps.log(formatReplicas(result));
  }
  const file = join(deps.here, 'results-replicas.json');
  const output = { date: new Date().toISOString(), machine: machineInfo(), results };
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  deps.log(`\nbench: wrote ${file}`);
}
