/** Files as context (DESIGN "Files are context"): read through a port; each unread one reported with why. */
import type { Logger } from '../../runtime/logger.js';
import type { ThreadMessage } from './context-ports.js';
import {
  buildFileContext,
  decodeText,
  FILE_DOWNLOAD_MAX_BYTES,
  type FileReport,
  type FileSkipReason,
  fileVerdict,
  type ReadFile,
  type SharedFile,
  sharedFilesOf,
} from './file-context.js';

/** What a download gave: the bytes, or why there are none. */
export type FileRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'too-big' | 'download-failed' };

/** Downloads a shared file with the bot token, from Slack's file host only, stopping past `maxBytes`. */
export interface FileReader {
  read(file: SharedFile & { downloadUrl: string }, maxBytes: number): Promise<FileRead>;
}

/** Most files one turn reads; more are named as not sent (no room). */
export const MAX_FILES_PER_TURN = 10;

/** Messages written by people (not bots, apps or integrations): only their files count. */
function byPerson(message: ThreadMessage): boolean {
  return Boolean(message.user) && !message.bot_id && message.subtype !== 'bot_message';
}

export function createFileGathering(deps: {
  reader: FileReader;
  logger: Logger;
  /** FILE_CONTEXT_MAX_CHARS; 0 reads no file. */
  settings: { maxChars: number };
}) {
  const { reader, logger, settings } = deps;

  /**
   * The file part of a turn's context: quoted text (if any file was read) and what became of each file.
   * `quoted`: the earlier messages thread context may quote, oldest first; the question's files go first.
   */
  async function gather(
    request: { channel: string; sourceTs: string; files?: SharedFile[] | undefined },
    quoted: readonly ThreadMessage[],
  ): Promise<{ text: string | undefined; report: FileReport } | undefined> {
    const earlier = [...quoted].reverse().filter(byPerson).flatMap(sharedFilesOf);
    const files = [...(request.files ?? []), ...earlier].filter(
      (file, index, all) => all.findIndex((other) => other.id === file.id) === index,
    );
    if (files.length === 0) return undefined;
    const skipped = new Map<SharedFile, FileSkipReason>();
    const reads = files.map(async (file, index): Promise<ReadFile | undefined> => {
      if (settings.maxChars <= 0) return skip(file, 'off');
      if (index >= MAX_FILES_PER_TURN) return skip(file, 'no-room');
      const verdict = fileVerdict(file);
      if (verdict.kind === 'skip') return skip(file, verdict.reason);
      const read = await reader
        .read({ ...file, downloadUrl: file.downloadUrl as string }, FILE_DOWNLOAD_MAX_BYTES)
        .catch((): FileRead => ({ ok: false, reason: 'download-failed' }));
      if (!read.ok) return skip(file, read.reason);
      const text = decodeText(read.bytes);
      return text === undefined ? skip(file, 'binary') : { id: file.id, name: file.name, text };
    });
    function skip(file: SharedFile, reason: FileSkipReason): undefined {
      skipped.set(file, reason);
      return undefined;
    }
    const read = (await Promise.all(reads)).filter((file): file is ReadFile => file !== undefined);
    const built = buildFileContext(read, settings.maxChars);
    const noRoom = new Set(built.noRoom.map((file) => file.id));
    const report: FileReport = {
      sent: built.sent.map((file) => file.name),
      notSent: files.flatMap((file) => {
        const reason = skipped.get(file) ?? (noRoom.has(file.id) ? 'no-room' : undefined);
        return reason ? [{ name: file.name, reason }] : [];
      }),
    };
    logger.info(
      {
        channel: request.channel,
        ts: request.sourceTs,
        filesSent: report.sent.length,
        filesNotSent: report.notSent.map((entry) => entry.reason),
        fileChars: built.text?.length ?? 0,
      },
      'file context prepared',
    );
    return { text: built.text, report };
  }

  return { gather };
}

export type FileGathering = ReturnType<typeof createFileGathering>;
