/**
 * One size of `npm run bench`: a fresh stand-ins process and bot, a warm-up, N mentions, the
 * probes beside them, then (unless `--skip-floor`) the bare stack doing what the bot did
 * (floor-run.ts). Returns everything measured for the size.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/load-config.js';
import { countsBetween } from './floor-plan.js';
import { countsOf, measureFloor } from './floor-run.js';
import {
  type HeapSummary,
  heapGrowth,
  heapSnapshotFlags,
  summariseSnapshot,
  takeSnapshot,
} from './heap-snapshot.js';
import {
  forkTs,
  freePort,
  nextMessage,
  processUsage,
  spawnNode,
  stopChild,
  waitHealthy,
} from './processes.js';
import type { LoadReply, LoadRequest, StandInsReply, StandInsRequest } from './protocol.js';
import type { SizeResult } from './report.js';
import { round, summarise } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Mentions per second at most, and posts in flight at most: 5,000 runs start within ~5 s. */
export const MENTION_RATE = 1_000;
export const MENTION_CONCURRENCY = 32;
/** Real runs answered before measuring, so the bot is not measured cold. */
const WARM_UP_RUNS = 50;
/** One probe every 10 ms, alternating between the bot and the bare app. */
export const PROBE_INTERVAL_MS = 10;

type Child = ChildProcess;
const log = (line: string) => process.stdout.write(`${line}\n`);
const send = <T>(child: Child, message: T) => child.send(message as object);

export interface Shared {
  bare: string;
  bareChild: Child;
  mentioner: Child;
  prober: Child;
  bot: { args: string[]; runtime: string };
  /** The Node binary the bot, the bare Bolt app and the floor run on. */
  node: string;
  /** `--heap`: snapshots of the bot after the warm-up and with every mention acked. */
  heap: boolean;
  /** `--profile DIR`: the floor's CPU profile goes there too. */
  profileDir?: string | undefined;
  /** `--skip-floor`: no bare-stack run after the bot's. */
  skipFloor: boolean;
  botEnv: (simUrl: string, slackApiUrl: string, port: number) => Record<string, string>;
  timeoutMs: (size: number) => number;
}

type Progress = Extract<StandInsReply, { type: 'answers' }>;

/** Answers, Slack calls and service requests the stand-ins have seen so far (warm-up included). */
async function progressOf(standIns: ChildProcess): Promise<Progress> {
  const reply = nextMessage<Progress>(standIns, 'answers', 10_000);
  send<StandInsRequest>(standIns, { type: 'answers' });
  return reply;
}

const answerCount = async (standIns: ChildProcess): Promise<number> => (await progressOf(standIns)).count;

/**
 * Neither app is measured cold: both are probed for a moment, and the bot answers a small batch
 * of real runs first, so its code paths are compiled as in a bot that has been up for a while.
 * Returns how many answers the warm-up produced.
 */
async function warmUp(shared: Shared, botUrl: string, standIns: ChildProcess): Promise<Progress> {
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
  return progressOf(standIns);
}

export async function runSize(shared: Shared, size: number): Promise<SizeResult> {
  const standIns = forkTs(join(here, 'stand-ins.ts'));
  try {
    const urls = await nextMessage<Extract<StandInsReply, { type: 'ready' }>>(standIns, 'ready', 30_000);
    const port = await freePort();
    const env = shared.botEnv(urls.simUrl, urls.slackApiUrl, port);
    const config = loadConfig(env);
    const pollSlots = Math.max(1, Math.floor(config.agent.maxInFlight * config.agent.pollShare));
    const heapDir = join(here, 'tmp', 'heap', `${process.pid}-${size}`);
    if (shared.heap) mkdirSync(heapDir, { recursive: true });
    const args = shared.heap ? [...heapSnapshotFlags(heapDir), ...shared.bot.args] : shared.bot.args;
    const { child: bot, tail } = spawnNode(args, env, shared.node);
    try {
      const botUrl = `http://127.0.0.1:${port}`;
      await waitHealthy(`${botUrl}/healthz`, bot, 30_000).catch((error: unknown) => {
        throw new Error(`bot did not start: ${String(error)}\n${tail.lines.join('\n')}`);
      });
      const warm = await warmUp(shared, botUrl, standIns);
      const warmAnswers = warm.count;
      const countsAtStart = await countsOf(standIns);
      const baselineHeap =
        shared.heap && bot.pid ? summariseSnapshot(await takeSnapshot(bot.pid, heapDir)) : undefined;
      const before = processUsage(bot.pid);
      const others = {
        standIns: standIns.pid,
        bare: shared.bareChild.pid,
        mentioner: shared.mentioner.pid,
        prober: shared.prober.pid,
      };
      const othersBefore = cpuOf(others);
      const started = performance.now();
      const deadline = Date.now() + shared.timeoutMs(size);

      send<LoadRequest>(shared.prober, {
        type: 'probe',
        targets: { bot: botUrl, bare: shared.bare },
        intervalMs: PROBE_INTERVAL_MS,
      });
      const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(
        shared.mentioner,
        'posted',
        shared.timeoutMs(size),
      );
      send<LoadRequest>(shared.mentioner, {
        type: 'mentions',
        appUrl: botUrl,
        size,
        ratePerSecond: MENTION_RATE,
        concurrency: MENTION_CONCURRENCY,
      });
      const peakHeap: Promise<SizeResult['heap']> =
        baselineHeap && bot.pid
          ? heapAtPeaks({
              pid: bot.pid,
              dir: heapDir,
              baseline: baselineHeap,
              size,
              warm,
              standIns,
              posted,
              deadline,
            })
          : Promise.resolve(undefined);
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
      const countsAtEnd = await countsOf(standIns);
      const othersAfter = cpuOf(others);
      const mentions = await posted;

      const reportReply = nextMessage<Extract<StandInsReply, { type: 'report' }>>(standIns, 'report', 30_000);
      send<StandInsRequest>(standIns, { type: 'report', mentions: mentions.mentions });
      const service = (await reportReply).report;
      const heap = await peakHeap.catch((error: unknown) => {
        log(`bench: heap snapshot failed: ${String(error)}`);
        return undefined;
      });
      await stopChild(bot);
      // The bot has stopped: the floor has the machine to itself, as the bot had.
      const floor = shared.skipFloor
        ? undefined
        : await measureFloor(
            {
              here,
              node: shared.node,
              forkTs,
              profileDir: shared.profileDir,
              mentioner: shared.mentioner,
              urls,
              mention: { ratePerSecond: MENTION_RATE, concurrency: MENTION_CONCURRENCY },
              warmUpRuns: WARM_UP_RUNS,
              timeoutMs: shared.timeoutMs(size),
            },
            size,
            countsBetween(countsAtStart.counts, countsAtEnd.counts),
            countsAtEnd.samples,
          )
            .then((result) => {
              log(
                `bench: floor ${result.cpuSeconds} CPU s for ${size} runs, ${result.exchangesPerRun} exchanges/run, ` +
                  `${result.failed} failed calls${result.failures ? ` ${JSON.stringify(result.failures)}` : ''}, ${result.seconds} s`,
              );
              return result;
            })
            .catch((error: unknown) => {
              log(`bench: the floor failed: ${String(error)}`);
              return undefined;
            });
      const slackCalls = Object.values(service.slackCalls).reduce((sum, n) => sum + n, 0);
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
        slackCallsMeasured: slackCalls - warm.slackCalls,
        serviceRequestsMeasured: service.serviceRequests - warm.serviceRequests,
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
        ...(heap ? { heap } : {}),
        ...(floor ? { floor } : {}),
      };
    } finally {
      await stopChild(bot);
      if (shared.heap) rmSync(heapDir, { recursive: true, force: true });
    }
  } finally {
    await stopChild(standIns);
  }
}

/**
 * Two snapshots while the runs are in flight: when every mention has been acked (most of them
 * still waiting for their turn to start) and when every run has started (the most turns tracked).
 */
async function heapAtPeaks(at: {
  pid: number;
  dir: string;
  baseline: HeapSummary;
  size: number;
  warm: Progress;
  standIns: ChildProcess;
  posted: Promise<unknown>;
  deadline: number;
}): Promise<SizeResult['heap']> {
  const now = async () => {
    const progress = await progressOf(at.standIns);
    return { answered: progress.count - at.warm.count, started: progress.runs - at.warm.runs };
  };
  await at.posted;
  const beforeAcked = await now();
  const acked = heapGrowth(
    at.baseline,
    summariseSnapshot(await takeSnapshot(at.pid, at.dir)),
    at.size - beforeAcked.answered,
  );
  let progress = await now();
  while (progress.started < at.size && Date.now() < at.deadline) {
    await sleep(50);
    progress = await now();
  }
  const started = heapGrowth(
    at.baseline,
    summariseSnapshot(await takeSnapshot(at.pid, at.dir)),
    progress.started - progress.answered,
  );
  return { acked, started };
}

/** CPU seconds so far of each named process (the other processes of the bench, for context). */
function cpuOf(pids: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, processUsage(pid)?.cpuSeconds ?? 0]),
  );
}
