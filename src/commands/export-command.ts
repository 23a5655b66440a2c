import type { AgentApi, SavedObjectType } from '../agent-api/index.js';
import type { Logger } from '../runtime/logger.js';
import {
  type CommandOutcome,
  type ExportedFile,
  type ServiceFailure,
  serviceFailure,
} from './command-outcome.js';

/**
 * `/agent export <type|all>`: one export request per type, each response uploaded unchanged as
 * a JSON file to the person who asked, privately. Exports are lossless (DESIGN, "Decisions"):
 * the file is the response text, not a re-serialisation of what the client parsed.
 */

/** Port: upload `files` to `userId` in a DM from the bot, with `comment` above them. */
export type SendFilesToUser = (
  userId: string,
  files: readonly ExportedFile[],
  comment: string,
) => Promise<void>;

/**
 * What an export reaches: the part of the command context (admin-commands.ts) it uses, named here
 * so that this file does not import admin-commands.ts, which imports it.
 */
export interface ExportContext {
  api: Pick<AgentApi, 'exportSavedObjects'>;
  /** Uploads files to the person privately (a DM from the bot). */
  sendFilesToUser: SendFilesToUser;
  newReferenceId: () => string;
  /** Default: the real clock (export file names carry the date). */
  now?: () => Date;
  logger: Logger;
}

/** `search-export-2025-01-31.json`: the type and the (UTC) date, as the issue asks. */
export function exportFileName(type: SavedObjectType, at: Date): string {
  return `${type}-export-${at.toISOString().slice(0, 10)}.json`;
}

/** The comment above the uploaded files in the DM. */
export function exportComment(files: readonly ExportedFile[]): string {
  const parts = files.map((file) => `${file.type}: ${file.count}`);
  return `Saved-object export (${parts.join(', ')}).`;
}

/**
 * Requests the types one after another (the command shares the service's request budget with
 * conversations), keeps going past a failed type, then sends what succeeded in one upload.
 */
export async function runExport(
  types: readonly SavedObjectType[],
  userId: string,
  context: ExportContext,
): Promise<CommandOutcome> {
  const at = (context.now ?? (() => new Date()))();
  const files: ExportedFile[] = [];
  const failures: ({ type: SavedObjectType } & ServiceFailure)[] = [];
  for (const type of types) {
    try {
      const { parsed, raw } = await context.api.exportSavedObjects(type);
      files.push({ type, filename: exportFileName(type, at), content: raw, count: parsed.hits.length });
    } catch (error) {
      failures.push({ type, ...serviceFailure(context, error, `export ${type}`) });
    }
  }
  if (files.length === 0) return { kind: 'exported', files, failures };
  try {
    await context.sendFilesToUser(userId, files, exportComment(files));
    return { kind: 'exported', files, failures, delivery: { ok: true } };
  } catch (error) {
    const delivery = { ok: false as const, ...serviceFailure(context, error, 'export upload') };
    return { kind: 'exported', files, failures, delivery };
  }
}
