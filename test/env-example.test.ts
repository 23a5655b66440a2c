import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config/load-config.js';

/**
 * .env.example against the code and the configuration reference: every variable config.ts reads (the
 * same list docs/configuration.md's table is checked against) is there, with a one-line meaning above it and
 * the documented default. A new variable without its line fails here.
 */

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

const VARIABLE_LINE = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/;
/** Defaults computed at start-up, which the README names in words, not as a value to write. */
const COMPUTED_DEFAULTS = new Set(['INSTANCE_ID']);

interface ExampleLine {
  name: string;
  value: string;
  commented: boolean;
  meaning: string;
}

function exampleLines(): ExampleLine[] {
  const lines = read('.env.example').split('\n');
  const found: ExampleLine[] = [];
  lines.forEach((line, index) => {
    const match = VARIABLE_LINE.exec(line);
    if (!match) return;
    const above = lines[index - 1] ?? '';
    found.push({
      name: match[2] as string,
      value: match[3] as string,
      commented: match[1] !== undefined,
      meaning: above.startsWith('#') && !VARIABLE_LINE.test(above) ? above.replace(/^#\s*/, '') : '',
    });
  });
  return found;
}

/** The configuration reference's table (docs/configuration.md): variable → its Default cell. */
function readmeDefaults(): Map<string, string> {
  const section = read('docs/configuration.md');
  const rows = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)];
  return new Map(rows.map((row) => [row[1] as string, (row[2] as string).trim()]));
}

describe('.env.example', () => {
  const lines = exampleLines();
  const names = lines.map((line) => line.name);

  it('lists every variable the bot reads, once, and nothing else', () => {
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(20);
    expect(
      CONFIG_VARIABLES.filter((name) => !names.includes(name)),
      'missing from .env.example',
    ).toEqual([]);
    expect(
      names.filter((name) => !CONFIG_VARIABLES.includes(name)),
      'not read by config.ts',
    ).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('says in one line above each variable what it means', () => {
    expect(lines.filter((line) => line.meaning.length < 10).map((line) => line.name)).toEqual([]);
  });

  it('leaves optional variables commented at the documented default, and required ones to fill in', () => {
    const defaults = readmeDefaults();
    for (const line of lines) {
      const readmeDefault = defaults.get(line.name);
      expect(readmeDefault, `${line.name} in docs/configuration.md's table`).toBeDefined();
      if (readmeDefault?.includes('required')) {
        expect(line.commented, `${line.name} is required: leave it uncommented`).toBe(false);
        continue;
      }
      expect(line.commented, `${line.name} has a default: comment it out`).toBe(true);
      const literal = /^`([^`]*)`$/.exec(readmeDefault ?? '');
      if (literal && !COMPUTED_DEFAULTS.has(line.name))
        expect(line.value, `${line.name}'s default`).toBe(literal[1]);
      if (/^(empty|unset)/.test(readmeDefault ?? '') && line.name !== 'REDIS_URL') {
        expect(line.value, `${line.name} defaults to ${readmeDefault}`).toBe('');
      }
    }
  });

  it('holds no secret: every token line is empty', () => {
    for (const line of lines.filter((l) => /TOKEN|SECRET/.test(l.name)))
      expect(line.value, line.name).toBe('');
  });
});
