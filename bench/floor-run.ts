/**
 * The floor of one size (issue 29): after the bot's run, the bare stack (floor.ts) on the same
 * runtime and stand-ins receives the same number of mentions and makes, per run, the service
 * requests and Slack calls the bot made per run in its measured window. Its CPU seconds over that
 * window are the floor the bot's CPU is compared with.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  botExchangesPerRun,
  type ExchangeCounts,
  type FloorExchanges,
  type FloorPlan,
  floorExchangesPerRun,
  floorRates,
} from './floor-plan.js';
import { nextMessage, processUsage, stopChild } from './processes.js';
import type {
  FloorReply,
  FloorRequest,
  LoadReply,
  LoadRequest,
  StandInsReply,
  StandInsRequest,
} from './protocol.js';
import { round } from './stats.js';

/** What results.json keeps per size under `floor`. */
export interface FloorResult {
  cpuSeconds: number;
  /** Mentions + service requests + Slack calls the floor made, per run. */
  exchangesPerRun: number;
  /** The same count for the bot over its measured window, for comparison. */
  botExchangesPerRun: number;
  /** Service requests and Slack calls per run the floor was asked to make. */
  plan: FloorPlan['rates'];
  failed: number;
  failures?: Record<string, number> | undefined;
  complete: boolean;
  peakRssMb: number;
  seconds: number;
}

type Counts = Extract<StandInsReply, { type: 'counts' }>;

/** The stand-ins' exchange counts so far, and one argument set per Slack method. */
export async function countsOf(standIns: ChildProcess): Promise<Counts> {
  const reply = nextMessage<Counts>(standIns, 'counts', 30_000);
  standIns.send({ type: 'counts' } satisfies StandInsRequest);
  return reply;
}

export interface FloorDeps {
  here: string;
  node: string;
  forkTs: (modulePath: string, node?: string, nodeArgs?: string[]) => ChildProcess;
  /** `--profile DIR`: the floor writes its V8 CPU profiles to DIR/floor-<size>/ (the largest is its main thread). */
  profileDir?: string | undefined;
  mentioner: ChildProcess;
  urls: { simUrl: string; slackApiUrl: string };
  mention: { ratePerSecond: number; concurrency: number };
  warmUpRuns: number;
  timeoutMs: number;
}

/** One batch through the floor: the plan, the mentions, and the floor's own count once every run is done. */
async function batch(
  deps: FloorDeps,
  floor: { child: ChildProcess; url: string },
  plan: FloorPlan,
): Promise<FloorExchanges | undefined> {
  const planned = nextMessage<FloorReply>(floor.child, 'planned', 10_000);
  floor.child.send({ type: 'plan', plan } satisfies FloorRequest);
  await planned;
  const done = nextMessage<Extract<FloorReply, { type: 'done' }>>(floor.child, 'done', deps.timeoutMs);
  const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(
    deps.mentioner,
    'posted',
    deps.timeoutMs,
  );
  deps.mentioner.send({
    type: 'mentions',
    appUrl: floor.url,
    size: plan.runs,
    ...deps.mention,
  } satisfies LoadRequest);
  await posted;
  return (await done.catch(() => undefined))?.exchanges;
}

/** Runs the floor for `size` runs doing what the bot did in `window` (its measured exchanges). */
export async function measureFloor(
  deps: FloorDeps,
  size: number,
  window: ExchangeCounts,
  samples: FloorPlan['samples'],
): Promise<FloorResult> {
  const rates = floorRates(window, size);
  // A directory of its own: tsx's loader thread writes a profile too (Node names each by pid and thread).
  const profile = deps.profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${join(deps.profileDir, `floor-${size}`)}`]
    : [];
  const child = deps.forkTs(join(deps.here, 'floor.ts'), deps.node, profile);
  try {
    const ready = nextMessage<Extract<FloorReply, { type: 'ready' }>>(child, 'ready', 30_000);
    child.send({ type: 'init', ...deps.urls } satisfies FloorRequest);
    const floor = { child, url: (await ready).url };
    await batch(deps, floor, { runs: deps.warmUpRuns, rates, samples });
    // A fresh second for the measured batch's thread timestamps, as for the bot.
    await sleep(1_000);
    const before = processUsage(child.pid);
    const started = Date.now();
    const exchanges = await batch(deps, floor, { runs: size, rates, samples });
    const after = processUsage(child.pid);
    return {
      cpuSeconds: round((after?.cpuSeconds ?? Number.NaN) - (before?.cpuSeconds ?? 0), 2),
      exchangesPerRun: exchanges ? round(floorExchangesPerRun(exchanges, size), 2) : Number.NaN,
      botExchangesPerRun: round(botExchangesPerRun(window, size), 2),
      plan: rates,
      failed: exchanges?.failed ?? Number.NaN,
      failures: exchanges?.failures,
      complete: exchanges !== undefined,
      peakRssMb: round(after?.peakRssMb ?? Number.NaN),
      seconds: round((Date.now() - started) / 1000),
    };
  } finally {
    await stopChild(child);
  }
}
