import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent-api/index.js';
import { exportFileName } from '../../src/commands/export-command.js';
import { type CommandOutcome, parseCommand } from '../../src/commands/registry.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';
import { parseError, setup } from './command-harness.js';

const text = (outcome: CommandOutcome) => renderCommandOutcome(outcome).text;

describe('parsing /agent export', () => {
  it.each([
    ['export search', { kind: 'export', types: ['search'] }],
    ['export Dashboards', { kind: 'export', types: ['dashboard'] }],
    ['export all', { kind: 'export', types: ['search', 'visualization', 'dashboard'] }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['export', 'something is missing'],
    ['export everything', '“everything” is not search, visualization, dashboard or all'],
    // A `query` type is said to be in the vendor's 2026 spec (issue 29), but the seed's export
    // endpoint takes only these three (the simulator, built from the seed, answers 400): not offered.
    ['export query', '“query” is not search, visualization, dashboard or all'],
  ])('%j is refused with the usage line', (text, problem) => {
    const result = parseError(text);
    expect(result.subcommand).toBe('export');
    expect(result.problem).toContain(problem);
    expect(result.usage).toMatch(/^\/agent /);
  });
});

describe('running /agent export', () => {
  it('exports the raw text, named by type and date, in one upload to the person', async () => {
    const { run, uploads, calls, lines } = setup();
    const outcome = await run('export all');
    expect(calls).toEqual(['export search', 'export visualization', 'export dashboard']);
    expect(uploads).toEqual([
      {
        userId: 'UADMIN',
        names: [
          'search-export-2025-01-31.json',
          'visualization-export-2025-01-31.json',
          'dashboard-export-2025-01-31.json',
        ],
        contents: ['search', 'visualization', 'dashboard'].map(
          (t) => `{"kibanaVersion":"7","hits":[],"extra":"${t}"}`,
        ),
      },
    ]);
    expect(outcome).toMatchObject({ kind: 'exported', delivery: { ok: true }, failures: [] });
    expect(lines.some((l) => l.includes('"counts":{"search":0,"visualization":0,"dashboard":0}'))).toBe(true);
  });

  it('reports a failed upload with a reference id', async () => {
    const { run, lines } = setup({
      sendFilesToUser: async () => {
        throw new Error('not_in_channel');
      },
    });
    const outcome = await run('export search');
    expect(outcome).toMatchObject({ kind: 'exported', delivery: { ok: false, referenceId: 'ref00001' } });
    expect(lines.some((l) => l.includes('ref00001') && l.includes('export upload'))).toBe(true);
  });

  it('exportFileName uses the UTC date', () => {
    expect(exportFileName('search', new Date('2025-01-31T23:59:00Z'))).toBe('search-export-2025-01-31.json');
  });
});

describe('/agent export replies', () => {
  it('lists export counts, and failures per type', () => {
    const reply = text({
      kind: 'exported',
      files: [{ type: 'search', filename: 'search-export-2025-01-31.json', content: '{}', count: 1 }],
      failures: [{ type: 'dashboard', error: new AgentApiError('timeout', 'x'), referenceId: 'r3' }],
      delivery: { ok: true },
    });
    expect(reply).toContain('• search: 1 saved object (`search-export-2025-01-31.json`)');
    expect(reply).toContain('• dashboard: The agent service took too long to respond');
  });
});
