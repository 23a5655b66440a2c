import { SAVED_OBJECT_TYPES, type SavedObjectType } from '../agent-api/index.js';
import type { ExportedFile } from './command-context.js';
import { expectCount } from './command-words.js';
import { helpLine, type ServiceFailure, type Subcommand, serviceFailure, UsageError } from './subcommand.js';

type ExportCommand = { kind: 'export'; types: SavedObjectType[] };

export type ExportOutcome = {
  kind: 'exported';
  files: ExportedFile[];
  failures: ({ type: SavedObjectType } & ServiceFailure)[];
  /** undefined when there was nothing to send. */
  delivery?: { ok: true } | ({ ok: false } & ServiceFailure) | undefined;
};

/** `search-export-2025-01-31.json`: the type and the (UTC) date, as the issue asks. */
export function exportFileName(type: SavedObjectType, at: Date): string {
  return `${type}-export-${at.toISOString().slice(0, 10)}.json`;
}

/** `/agent export <type|all>`: each response uploaded unchanged (lossless, DESIGN "Decisions"), privately. */
export const exportCommand: Subcommand<ExportCommand, ExportOutcome> = {
  words: ['export'],
  help: [
    helpLine(
      'export',
      '/agent export <search|visualization|dashboard|all>',
      'Export saved objects as JSON files, sent to you in a direct message.',
      { example: '/agent export all' },
    ),
  ],
  homeOnly: true,
  slow: true,
  parse(args) {
    expectCount('export', args, 1, 1);
    const wanted = (args[0] ?? '').toLowerCase().replace(/s$/, '');
    if (wanted === 'all') return { kind: 'export', types: [...SAVED_OBJECT_TYPES] };
    const type = SAVED_OBJECT_TYPES.find((candidate) => candidate === wanted);
    if (!type) throw new UsageError('export', `“${args[0]}” is not search, visualization, dashboard or all`);
    return { kind: 'export', types: [type] };
  },
  // One type after another (the service's request budget is shared), past failures; one upload.
  async run({ types }, { userId }, context) {
    const at = (context.now ?? (() => new Date()))();
    const files: ExportedFile[] = [];
    const failures: ExportOutcome['failures'] = [];
    for (const type of types) {
      try {
        const { parsed, raw } = await context.api.exportSavedObjects(type);
        files.push({ type, filename: exportFileName(type, at), content: raw, count: parsed.hits.length });
      } catch (error) {
        failures.push({ type, ...serviceFailure(context, error, `export ${type}`) });
      }
    }
    if (files.length === 0) return { kind: 'exported', files, failures };
    const counts = files.map((file) => `${file.type}: ${file.count}`).join(', ');
    try {
      await context.sendFilesToUser(userId, files, `Saved-object export (${counts}).`);
      return { kind: 'exported', files, failures, delivery: { ok: true } };
    } catch (error) {
      const delivery = { ok: false as const, ...serviceFailure(context, error, 'export upload') };
      return { kind: 'exported', files, failures, delivery };
    }
  },
  auditFields: (outcome) => ({ counts: Object.fromEntries(outcome.files.map((f) => [f.type, f.count])) }),
  result: (outcome) => (outcome.failures.length > 0 || outcome.delivery?.ok === false ? 'failed' : 'ok'),
};
