/**
 * `npm run bench -- --heap`: V8 heap snapshots of the bot, once after the warm-up and once when
 * every mention of a size has been acked (the most runs in flight), and what they say per run in
 * flight. The bot is started with `--heapsnapshot-signal=SIGUSR2` (no heap-size flag) and writes
 * each snapshot on its main thread when signalled; a snapshot holds only live objects, so the
 * difference of the two is what the runs in flight keep, garbage excluded.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Live bytes of one snapshot, in all and by kind of object. */
export interface HeapSummary {
  liveBytes: number;
  /** Self size by object kind: a constructor's name, or `(closure)`, `(string)`, `(code)`… */
  byKind: Record<string, number>;
}

/** What the runs in flight hold: the growth of live bytes between two snapshots, per run. */
export interface HeapGrowth {
  baselineMb: number;
  peakMb: number;
  runsInFlight: number;
  bytesPerRun: number;
  /** The kinds that grew most, bytes per run in flight, largest first. */
  topKinds: Array<{ kind: string; bytesPerRun: number }>;
}

export const HEAP_SNAPSHOT_SIGNAL = 'SIGUSR2';

/** Node flags that make the bot write a snapshot into `dir` when signalled. */
export const heapSnapshotFlags = (dir: string): string[] => [
  `--heapsnapshot-signal=${HEAP_SNAPSHOT_SIGNAL}`,
  `--diagnostic-dir=${dir}`,
];

/** The kind an object is counted under: objects by constructor, the rest by V8's node type. */
function kindOf(type: string, name: string): string {
  switch (type) {
    case 'object':
      return name.split(' ')[0] || '(object)';
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return '(string)';
    case 'closure':
      return '(closure)';
    case 'array':
      return '(array)';
    case 'code':
      return '(code)';
    case 'regexp':
      return '(regexp)';
    case 'number':
    case 'heap number':
      return '(number)';
    default:
      return `(${type})`;
  }
}

interface SnapshotJson {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Sums a `.heapsnapshot` file's self sizes, in all and by kind. */
export function summariseSnapshot(file: string): HeapSummary {
  const json = JSON.parse(readFileSync(file, 'utf8')) as SnapshotJson;
  const fields = json.snapshot.meta.node_fields;
  const types = json.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byKind: Record<string, number> = {};
  let liveBytes = 0;
  for (let i = 0; i < json.nodes.length; i += width) {
    const size = json.nodes[i + sizeAt] ?? 0;
    const type = types[json.nodes[i + typeAt] ?? 0] ?? '?';
    const kind = kindOf(type, json.strings[json.nodes[i + nameAt] ?? 0] ?? '');
    byKind[kind] = (byKind[kind] ?? 0) + size;
    liveBytes += size;
  }
  return { liveBytes, byKind };
}

/** The growth from `baseline` to `peak`, per run in flight (the `top` kinds that grew most). */
export function heapGrowth(
  baseline: HeapSummary,
  peak: HeapSummary,
  runsInFlight: number,
  top = 8,
): HeapGrowth {
  const runs = Math.max(1, runsInFlight);
  const grown = Object.entries(peak.byKind)
    .map(([kind, bytes]) => ({
      kind,
      bytesPerRun: Math.round((bytes - (baseline.byKind[kind] ?? 0)) / runs),
    }))
    .filter((entry) => entry.bytesPerRun > 0)
    .sort((a, b) => b.bytesPerRun - a.bytesPerRun)
    .slice(0, top);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;
  return {
    baselineMb: mb(baseline.liveBytes),
    peakMb: mb(peak.liveBytes),
    runsInFlight,
    bytesPerRun: Math.round((peak.liveBytes - baseline.liveBytes) / runs),
    topKinds: grown,
  };
}

const snapshotsIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.heapsnapshot'))
    .map((name) => join(dir, name));

/**
 * Signals the bot and waits until its new snapshot is complete: the file has stopped growing and
 * ends the JSON document. Returns the file's path.
 */
export async function takeSnapshot(pid: number, dir: string, timeoutMs = 120_000): Promise<string> {
  const before = new Set(snapshotsIn(dir));
  process.kill(pid, HEAP_SNAPSHOT_SIGNAL);
  const deadline = Date.now() + timeoutMs;
  let lastSize = -1;
  while (Date.now() < deadline) {
    await sleep(250);
    const file = snapshotsIn(dir).find((path) => !before.has(path));
    if (!file) continue;
    const size = statSync(file).size;
    if (size > 0 && size === lastSize && endsDocument(file, size)) return file;
    lastSize = size;
  }
  throw new Error(`no complete heap snapshot from process ${pid} in ${dir} within ${timeoutMs} ms`);
}

function endsDocument(file: string, size: number): boolean {
  const tail = readFileSync(file)
    .subarray(Math.max(0, size - 16))
    .toString('utf8');
  return /\]\s*\}\s*$/.test(tail);
}

/** One line per size and moment: live heap at baseline and then, bytes per run in flight, what grew most. */
export function formatHeap(
  rows: Array<{ size: number; heap: { acked: HeapGrowth; started: HeapGrowth } }>,
): string {
  const lines = [
    '  runs   moment            in flight   live MB base → then   bytes/run in flight   grew most (bytes/run)',
  ];
  const moments = rows.flatMap(({ size, heap }) => [
    { size, moment: 'all acked', heap: heap.acked },
    { size, moment: 'all started', heap: heap.started },
  ]);
  for (const { size, moment, heap } of moments) {
    const top = heap.topKinds
      .slice(0, 5)
      .map((entry) => `${entry.kind} ${entry.bytesPerRun}`)
      .join(', ');
    lines.push(
      `${String(size).padStart(6)}   ${moment.padEnd(15)}   ${String(heap.runsInFlight).padStart(9)}   ${`${heap.baselineMb} → ${heap.peakMb}`.padStart(19)}   ${String(heap.bytesPerRun).padStart(19)}   ${top}`,
    );
  }
  return lines.join('\n');
}
