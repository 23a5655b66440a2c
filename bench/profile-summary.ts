/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile|file.heapprofile> [top]`: where a V8 CPU profile
 * of the bot (`npm run bench -- --profile DIR`) spent its time — self time by area (our src/, each
 * library, Node's internals, GC) and the heaviest functions with their files. Samples are weighted by
 * their time deltas, so the figures are milliseconds of CPU the profile saw. A sampling heap profile
 * (bench/alloc-sampling.cjs) is read the same way, weighted by the bytes each frame allocated.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A sampling heap profile's tree: each node's `selfSize` is what its frame allocated. */
interface HeapNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children?: HeapNode[];
}

/** The profile's frames and each frame's weight: µs of CPU, or bytes allocated. */
function weighed(file: string): { nodes: ProfileNode[]; self: Map<number, number>; bytes: boolean } {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Profile | { head: HeapNode };
  const self = new Map<number, number>();
  if ('nodes' in parsed) {
    parsed.samples.forEach((id, i) => {
      self.set(id, (self.get(id) ?? 0) + (parsed.timeDeltas[i] ?? 0));
    });
    return { nodes: parsed.nodes, self, bytes: false };
  }
  const nodes: ProfileNode[] = [];
  const visit = (node: HeapNode): void => {
    nodes.push({ ...node, children: (node.children ?? []).map((child) => child.id) });
    self.set(node.id, node.selfSize);
    node.children?.forEach(visit);
  };
  visit(parsed.head);
  return { nodes, self, bytes: true };
}

/** The area a frame belongs to: our code by folder, a library by package, else Node or V8. */
export function areaOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(idle)' || name === '(program)') return name;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg;
  // The bench runs the bot compiled into bench/tmp/build: its src/ is ours all the same.
  const ours = /\/(?:bench\/tmp\/build\/)?(src|dev|bench)\/([^/]+)(\/)?/.exec(url);
  if (ours) return ours[3] ? `${ours[1]}/${ours[2]}` : `${ours[1]} (top level)`;
  if (url.startsWith('node:') || url === '') return 'node internals / native';
  return url;
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile|file.heapprofile> [top]');
  const top = Number(topArg ?? 25);
  const { nodes, self, bytes } = weighed(file);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** Node's own frames count for the nearest caller that is ours or a library's (who asked for the work). */
  const ownerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      const area = areaOf(frame.url, frame.functionName);
      if (area !== 'node internals / native' && area !== '(root)') return area;
    }
    return 'node internals / native';
  };
  const areas = new Map<string, number>();
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, weight] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const area = areaOf(frame.url, frame.functionName);
    if (area === '(idle)') continue;
    busy += weight;
    areas.set(area, (areas.get(area) ?? 0) + weight);
    const owner = ownerOf(id);
    owners.set(owner, (owners.get(owner) ?? 0) + weight);
    const where = frame.url.replace(/^.*\/(node_modules|src|dev|bench)\//, '$1/');
    const key = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + weight);
  }
  const amount = (weight: number) =>
    bytes ? `${(weight / 1e6).toFixed(1).padStart(8)} MB` : `${(weight / 1000).toFixed(0).padStart(8)} ms`;
  const line = (name: string, weight: number) =>
    `${amount(weight)}  ${((weight / busy) * 100).toFixed(1).padStart(5)}%  ${name}`;
  const what = bytes ? 'allocated' : 'busy (not idle)';
  const measure = bytes ? 'allocations' : 'time';
  process.stdout.write(`${what}: ${amount(busy).trim()}\n\nself ${measure} by area:\n`);
  for (const [area, weight] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(area, weight)}\n`);
  process.stdout.write(`\nself ${measure} by owner (Node's own frames counted for their nearest caller):\n`);
  for (const [owner, weight] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(owner, weight)}\n`);
  process.stdout.write(`\nheaviest functions (self ${measure}):\n`);
  for (const [name, weight] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(name, weight)}\n`);
}

main();
