import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts file under a folder, with its import specifiers. */
function sources(dir: string): Array<{ file: string; imports: string[]; text: string }> {
  const out: Array<{ file: string; imports: string[]; text: string }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) {
      const text = readFileSync(path, 'utf8');
      const imports = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map(
        (m) => m[1] ?? '',
      );
      out.push({ file: relative('.', path), imports, text });
    }
  }
  return out;
}

const all = sources('src');
const importsOf = (prefix: string) => all.filter((source) => source.file.startsWith(prefix));

describe('the folder tells the layer', () => {
  it('conversation/ imports neither Bolt, ky, keyv nor the adapters', () => {
    for (const source of importsOf('src/conversation/')) {
      for (const spec of source.imports) {
        expect(spec, source.file).not.toMatch(
          /^(@slack\/|ky$|keyv$|@keyv\/)|\/(agent-api|store|slack|simulator)\//,
        );
      }
    }
  });

  it('only slack/ imports @slack/*, only store/ imports keyv (sandbox aside)', () => {
    for (const source of all) {
      if (source.file.startsWith('src/sandbox/')) continue;
      for (const spec of source.imports) {
        if (spec.startsWith('@slack/')) expect(source.file, spec).toMatch(/^src\/slack\//);
        if (spec === 'keyv' || spec.startsWith('@keyv/')) expect(source.file, spec).toMatch(/^src\/store\//);
      }
    }
  });

  it('ky is the agent-service client: agent-api/ imports it, nothing else does', () => {
    const kyImporters = all
      .filter((source) => source.imports.some((spec) => spec === 'ky' || spec.startsWith('ky/')))
      .map((source) => source.file);
    expect(kyImporters.filter((file) => file.startsWith('src/agent-api/'))).not.toEqual([]);
    expect(kyImporters.filter((file) => !file.startsWith('src/agent-api/'))).toEqual([]);
  });

  it('commands/ does not import Bolt or the Slack layer', () => {
    for (const source of importsOf('src/commands/')) {
      for (const spec of source.imports) expect(spec, source.file).not.toMatch(/^@slack\/|\/slack\//);
    }
  });

  it('the simulator is written from the seed: it imports nothing of the bot', () => {
    for (const source of importsOf('src/simulator/')) {
      for (const spec of source.imports.filter((s) => s.startsWith('.'))) {
        expect(spec, source.file).not.toMatch(/^\.\.\//);
      }
    }
  });

  it('nothing but config.ts reads process.env (the sandbox and simulator CLIs aside)', () => {
    const readers = all
      .filter((source) => /process\.env\b/.test(source.text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, '')))
      .map((source) => source.file)
      .filter((file) => !file.startsWith('src/sandbox/') && file !== 'src/simulator/cli.ts');
    expect(readers).toEqual(['src/config.ts']);
  });
});
