import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The machine is in charge (issue 29): only turn-machine.ts decides a phase. Elsewhere no module
 * compares a turn's phase to a name or writes a state with a phase of its own choosing; the phase
 * names are read from turn-states.ts, so a new phase is guarded as soon as it exists.
 */
const MACHINE = ['src/conversation/turn/turn-machine.ts', 'src/conversation/turn/turn-states.ts'].map(
  (path) => join(path),
);

const phaseNames = (statesText: string): string[] => [
  ...new Set(
    [...statesText.matchAll(/\bphase: ((?:'[a-z-]+'(?: \| )?)+);/g)].flatMap((match) =>
      [...(match[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((name) => name[1] ?? ''),
    ),
  ),
];

/** The lines of `text` that compare a phase to one of `names` or build a state with one. */
function phaseDecisions(text: string, names: string[]): string[] {
  const name = `'(?:${names.join('|')})'`;
  const decides = new RegExp(
    `\\bphase\\s*[!=]==?\\s*${name}|${name}\\s*[!=]==?\\s*[\\w.?]*\\bphase\\b|\\bphase:\\s*${name}`,
  );
  return text.split('\n').filter((line) => decides.test(line));
}

describe('the turn machine is the one that decides a phase', () => {
  const names = phaseNames(readFileSync('src/conversation/turn/turn-states.ts', 'utf8'));
  const files = readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src', name));

  it('reads every phase the states name, and every module of src/', () => {
    expect(names).toEqual(
      expect.arrayContaining(['idle', 'checking', 'starting', 'polling', 'late', 'delivering']),
    );
    expect(files).toContain(join('src/conversation/turn/run-start.ts'));
    expect(files).toContain(join('src/conversation/turn/turn-recovery.ts'));
  });

  it('finds a decision where there is one (the guard can fail)', () => {
    expect(phaseDecisions("if (turn.phase === 'late') return;", names)).toHaveLength(1);
    expect(phaseDecisions("const state = { phase: 'starting', turnId };", names)).toHaveLength(1);
    expect(phaseDecisions("if ('polling' !== entry.state.phase) stop();", names)).toHaveLength(1);
    expect(phaseDecisions("if (t.phase === 'parked') wait(); t.phase = 'polling';", names)).toEqual([]);
  });

  it('no module outside the machine compares a turn phase or builds a state inline', () => {
    const offenders = files
      .filter((path) => !MACHINE.includes(path))
      .flatMap((path) =>
        phaseDecisions(readFileSync(path, 'utf8'), names).map((line) => `${path}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
