/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [top]`: where a V8 CPU profile of the bot
 * (`npm run bench -- --profile DIR`) spent its time — self time by area (our src/, each library,
 * Node's internals, GC) and the heaviest functions with their files. Samples are weighted by
 * their time deltas, so the figures are milliseconds of CPU the profile saw.
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
  if (!file) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile> [top]');
  const top = Number(topArg ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
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
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const areas = new Map<string, number>();
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const area = areaOf(frame.url, frame.functionName);
    if (area === '(idle)') continue;
    busy += us;
    areas.set(area, (areas.get(area) ?? 0) + us);
    const owner = ownerOf(id);
    owners.set(owner, (owners.get(owner) ?? 0) + us);
    const where = frame.url.replace(/^.*\/(node_modules|src|dev|bench)\//, '$1/');
    const key = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const line = (name: string, us: number) =>
    `${(us / 1000).toFixed(0).padStart(8)} ms  ${((us / busy) * 100).toFixed(1).padStart(5)}%  ${name}`;
  process.stdout.write(`busy (not idle): ${(busy / 1000).toFixed(0)} ms\n\nself time by area:\n`);
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(area, us)}\n`);
  process.stdout.write("\nself time by owner (Node's own frames counted for their nearest caller):\n");
  for (const [owner, us] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(owner, us)}\n`);
  process.stdout.write('\nheaviest functions (self time):\n');
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${line(name, us)}\n`);
}

main();
