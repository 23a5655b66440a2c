/**
 * Child processes of the bench: started here, tracked, and all killed (by pid) on exit or error.
 * Also the Linux /proc readings of the bot process (peak RSS, CPU seconds).
 */
import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const children = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL: the bench is ending, nothing to save). */
export function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Forks a TypeScript module of bench/ with an IPC channel (on `node`, default this one, with
 * `nodeArgs` such as `--cpu-prof`); its stdout is discarded.
 */
export function forkTs(modulePath: string, node = process.execPath, nodeArgs: string[] = []): ChildProcess {
  return track(
    fork(modulePath, [], {
      execPath: node,
      execArgv: [...nodeArgs, '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
}

/** The last lines a process wrote, for a diagnosis when it fails; counts every line. */
export interface OutputTail {
  lines: string[];
  count: number;
}

/** Spawns `node <args>` with exactly `env`; stdout and stderr are drained into a short tail. */
export function spawnNode(
  args: string[],
  env: Record<string, string>,
  node = process.execPath,
): { child: ChildProcess; tail: OutputTail } {
  const child = track(spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const tail: OutputTail = { lines: [], count: 0 };
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      tail.count += 1;
      tail.lines.push(line.length > 400 ? `${line.slice(0, 400)}…` : line);
      if (tail.lines.length > 20) tail.lines.shift();
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return { child, tail };
}

/** Resolves with the next IPC message of `type` from `child`; rejects on timeout or exit. */
export function nextMessage<T extends { type: string }>(
  child: ChildProcess,
  type: T['type'],
  timeoutMs: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { type?: unknown }).type !== type) return;
      cleanup();
      resolve(message as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`child ${child.pid} exited (${code}) before sending "${type}"`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no "${type}" from child ${child.pid} within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Asks for a SIGTERM shutdown, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; rejects when `child` exits first or after `timeoutMs`. */
export async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode})`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${url} not healthy within ${timeoutMs} ms`);
}

/** Peak resident set (VmHWM) and CPU time of a process, from /proc (Linux only). */
export interface ProcessUsage {
  peakRssMb: number;
  rssMb: number;
  cpuSeconds: number;
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const parsed = Number(out.stdout?.trim());
    clockTicks = Number.isFinite(parsed) && parsed > 0 ? parsed : 100;
  }
  return clockTicks;
}

/** Reads /proc/<pid>; undefined where /proc is not available. */
export function processUsage(pid: number | undefined): ProcessUsage | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { peakRssMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024, cpuSeconds: ticks / ticksPerSecond() };
  } catch {
    return undefined;
  }
}
