import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The folder tells the layer (CONVENTIONS 2, 16, 19). Two tables, checked against every import in
 * src/ (the product) and dev/ (the stand-ins: the simulator, the Slack stand-in, the sandbox):
 * - which layer may use which package (a package missing from the table fails: a new dependency
 *   is placed on purpose), and
 * - which layers a layer may import (dependencies point inward).
 * A row that no file uses any more fails too, so the tables cannot drift into rules that police
 * nothing.
 */

interface Source {
  file: string;
  layer: string;
  /** Bare package names (`@slack/bolt`, `ky`), without subpaths. */
  packages: string[];
  /** Layers of the relative imports. */
  layers: string[];
  text: string;
}

/**
 * `src/conversation/turn/x.ts` → `conversation`; a file at the top, `src/metrics.ts` → `metrics.ts`;
 * a stand-in keeps its top folder, `dev/simulator/x.ts` → `dev/simulator`.
 */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'dev') return `dev/${parts[1] ?? ''}`;
  // The configuration (src/config/: the loader, the field schemas, the type, .env) is one layer.
  if (parts[1] === 'config') return 'config.ts';
  return parts[1] ?? file;
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

function sources(dir: string): Source[] {
  const out: Source[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      out.push(...sources(path));
      continue;
    }
    if (!name.endsWith('.ts')) continue;
    const file = relative('.', path);
    const text = readFileSync(path, 'utf8');
    const specs = [...text.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? '');
    const isNode = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec);
    out.push({
      file,
      layer: layerOf(file),
      packages: [...new Set(specs.filter((s) => !s.startsWith('.') && !isNode(s)).map(packageName))],
      layers: [
        ...new Set(
          specs
            .filter((s) => s.startsWith('.'))
            .map((s) => layerOf(normalize(join(dirname(file), s)).replace(/\.js$/, '.ts')))
            .filter((layer) => layer !== layerOf(file)),
        ),
      ],
      text,
    });
  }
  return out;
}

const product = sources('src');
const standIns = sources('dev');
const all = [...product, ...standIns];

/** Package → the layers that may import it. */
const PACKAGE_LAYERS: Record<string, string[]> = {
  // Bolt, and the Web client it hands out, are the Slack adapter's alone.
  // …and the one logger module, which speaks Bolt's logger interface over pino.
  '@slack/bolt': ['slack', 'logging.ts'],
  '@slack/web-api': ['slack'],
  '@slack/types': ['slack'],
  '@slack/oauth': ['slack'],
  // ky is the agent-service client; undici is the keep-alive pool handed to ky and the Web client.
  ky: ['agent-api'],
  undici: ['agent-api', 'slack'],
  // Schemas beside the calls that use them, and the environment's one schema.
  zod: ['agent-api', 'config.ts'],
  keyv: ['store'],
  '@keyv/redis': ['store'],
  redis: ['store'],
  '@redis/client': ['store'],
  pino: ['logging.ts'],
  'prom-client': ['metrics.ts'],
  'chrono-node': ['conversation'],
  // The alert webhook reads its body with a size limit, as Bolt's own receiver does.
  'raw-body': ['alerts'],
  // Socket Mode's WebSocket server in the stand-in.
  ws: ['dev/slack-standin'],
};

/** Layer → the layers it may import. Everything not listed imports nothing of the bot. */
const LAYER_IMPORTS: Record<string, string[]> = {
  runtime: [],
  secrets: [],
  conversation: ['runtime'],
  // The request budget: a cap per process and per account, leased from the store through a port
  // of its own (the store implements it), so neither the client nor the store knows the other.
  budget: ['runtime'],
  'agent-api': ['budget', 'conversation', 'runtime'],
  capacity: ['agent-api', 'runtime'],
  // App Home's records port is home/'s (home-ports.ts); the store implements it.
  store: ['alerts', 'budget', 'connections', 'conversation', 'home', 'runtime', 'secrets'],
  // Service connections: one client factory, a client per alias, sealed tokens (DESIGN "Many accounts").
  connections: ['agent-api', 'budget', 'config.ts', 'conversation', 'runtime', 'secrets'],
  // Alert investigations: a room beside the conversation, starting runs through its ports.
  alerts: ['conversation', 'http', 'runtime'],
  commands: ['agent-api', 'alerts', 'capacity', 'connections', 'conversation', 'runtime'],
  // What a person's App Home shows, gathered from the service, the store and the commands' data.
  home: ['agent-api', 'commands', 'conversation', 'runtime'],
  http: ['runtime'],
  slack: [
    'agent-api',
    'alerts',
    'connections',
    'capacity',
    'commands',
    'config.ts',
    'conversation',
    'home',
    'http',
    'logging.ts',
    'metrics.ts',
    'runtime',
    'secrets',
    // The installation store's record port (OAuth installations are kept, sealed, in the state store).
    'store',
  ],
  // The key's decoder, and the Redis topology's shape and address parser (pure modules).
  'config.ts': ['secrets', 'store'],
  'logging.ts': ['runtime'],
  'metrics.ts': ['alerts', 'conversation'],
  // The composition root wires every adapter; main.ts only starts it.
  'start-bot.ts': [
    'agent-api',
    'alerts',
    'composition',
    'connections',
    'capacity',
    'commands',
    'config.ts',
    'conversation',
    'home',
    'http',
    'metrics.ts',
    'runtime',
    'secrets',
    'slack',
    'store',
  ],
  // Rooms of the composition root too big to sit in start-bot.ts itself; the bot context
  // (bot-context.ts) makes the metrics once, for every room.
  composition: [
    'agent-api',
    'alerts',
    'commands',
    'config.ts',
    'connections',
    'conversation',
    'metrics.ts',
    'runtime',
    'slack',
    'store',
  ],
  'main.ts': ['config.ts', 'logging.ts', 'start-bot.ts'],
  // dev/: the stand-ins beside the product. Nothing above names a dev/ layer: src/ imports none.
  // Written from the seed, not from the client: shared schemas would let both sides agree on a mistake.
  'dev/simulator': [],
  // Slack as the bot sees it from outside: nothing of the bot's layers.
  'dev/slack-standin': [],
  'dev/local-stack': ['dev/simulator', 'dev/slack-standin'],
  // The try-out drives the real app through its front door.
  'dev/sandbox': [
    'config.ts',
    'conversation',
    'dev/local-stack',
    'dev/simulator',
    'dev/slack-standin',
    'logging.ts',
    'runtime',
    'start-bot.ts',
  ],
};

describe('the folder tells the layer', () => {
  it('every package is imported only by the layers its row names', () => {
    const misplaced = all.flatMap((source) =>
      source.packages
        .filter((pkg) => !(PACKAGE_LAYERS[pkg] ?? []).includes(source.layer))
        .map((pkg) => `${source.file} imports ${pkg}`),
    );
    expect(misplaced).toEqual([]);
  });

  it('every layer imports only the layers its row names', () => {
    const inward = all.flatMap((source) =>
      source.layers
        .filter((layer) => !(LAYER_IMPORTS[source.layer] ?? []).includes(layer))
        .map((layer) => `${source.file} imports ${layer}`),
    );
    expect(inward).toEqual([]);
  });

  it('src/ is the product: nothing in it imports from dev/ (dependencies point dev → src only)', () => {
    const intoDev = product.flatMap((source) =>
      source.layers
        .filter((layer) => layer.startsWith('dev/'))
        .map((layer) => `${source.file} imports ${layer}`),
    );
    expect(intoDev).toEqual([]);
    // The stand-ins live in dev/ alone: no src/ folder is named like one of them.
    const layers = new Set(product.map((source) => source.layer));
    expect(
      ['simulator', 'slack-standin', 'sandbox', 'local-stack'].filter((name) => layers.has(name)),
    ).toEqual([]);
  });

  it('every row is used: no rule polices a package or a layer that is gone', () => {
    const usedPackages = new Set(all.flatMap((source) => source.packages));
    const optional = new Set(['@slack/oauth', 'redis', '@redis/client']);
    const unusedPackages = Object.keys(PACKAGE_LAYERS).filter(
      (pkg) => !usedPackages.has(pkg) && !optional.has(pkg),
    );
    expect(unusedPackages).toEqual([]);
    const layers = new Set(all.map((source) => source.layer));
    expect(Object.keys(LAYER_IMPORTS).filter((layer) => !layers.has(layer))).toEqual([]);
    expect([...layers].filter((layer) => !(layer in LAYER_IMPORTS))).toEqual([]);
  });

  it('the stack is what the card says: ky carries the service, the Web client carries Slack', () => {
    const importers = (pkg: string) =>
      all.filter((source) => source.packages.includes(pkg)).map((s) => s.file);
    expect(importers('ky')).toContain('src/agent-api/service-http.ts');
    expect(importers('@slack/web-api')).toContain('src/slack/web-client.ts');
    // No hand-built HTTP for the service or Slack: the only fetch calls there are the transports
    // handed to ky and to the Web client (Node's fetch with our undici dispatcher), and neither
    // adapter opens node:http requests of its own.
    const adapters = all.filter((source) => ['agent-api', 'slack'].includes(source.layer));
    const handBuilt = adapters.flatMap((source) =>
      source.text
        .split('\n')
        .filter((line) => /(?<!typeof )\bfetch\(/.test(line) && !/\bdispatcher\b/.test(line))
        .map((line) => `${source.file}: ${line.trim()}`),
    );
    expect(handBuilt).toEqual([]);
    const httpRequests = adapters.filter((source) => /\bhttps?\.(request|get)\(/.test(source.text));
    expect(httpRequests.map((source) => source.file)).toEqual([]);
  });

  it('nothing but config/load-config.ts reads process.env (the sandbox and simulator CLIs aside)', () => {
    const readers = all
      .filter((source) => /process\.env\b/.test(source.text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
      .map((source) => source.file)
      .filter((file) => !file.startsWith('dev/sandbox/') && file !== 'dev/simulator/cli.ts');
    expect(readers).toEqual(['src/config/load-config.ts']);
  });
});

/**
 * Import cycles (CONVENTIONS: a shared type or constant lives in a small leaf module of its own).
 * The graph is every relative import of src/, type-only ones (`import type`) and re-exports
 * (`export … from`) included: `./x.js` resolves to `x.ts`, or to `x/index.ts` for a folder.
 * A strongly connected component of more than one file (or a file importing itself) is a cycle.
 */

/** File → the src/ files it imports. */
function importGraph(files: Source[]): Map<string, string[]> {
  const known = new Set(files.map((source) => source.file));
  const resolve = (from: string, spec: string): string | undefined => {
    const base = normalize(join(dirname(from), spec));
    const candidates = [
      base.replace(/\.js$/, '.ts'),
      base.endsWith('.ts') ? base : `${base}.ts`,
      join(base, 'index.ts'),
    ];
    return candidates.find((candidate) => known.has(candidate));
  };
  const graph = new Map<string, string[]>();
  for (const source of files) {
    const specs = [...source.text.matchAll(SPECIFIER)]
      .map((m) => m[1] ?? m[2] ?? '')
      .filter((spec) => spec.startsWith('.'));
    const targets = specs
      .map((spec) => resolve(source.file, spec))
      .filter((target): target is string => target !== undefined);
    graph.set(source.file, [...new Set(targets)]);
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components (Tarjan), each sorted. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      cycles.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) {
    if (!index.has(file)) visit(file);
  }
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

describe('imports form no cycles', () => {
  it('no import cycles in src/', () => {
    const cycles = importCycles(importGraph(product)).map((files) => files.join(' ↔ '));
    expect(cycles).toEqual([]);
  });

  it('the cycle finder finds a cycle (and a self-import), not only passes', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });
});
