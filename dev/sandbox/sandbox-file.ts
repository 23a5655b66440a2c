import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { MessageFile, SlackStandin } from '../slack-standin/index.js';
import { fileLine, formatBytes, SPEAKER, speak } from './render-terminal.js';
import type { ChatOutput } from './sandbox-session.js';
import { SANDBOX_CHANNEL } from './sandbox-stack.js';

/**
 * `/file <path> [question]`: a local file, shared in #sandbox as a person shares one in Slack (the
 * stand-in's file object on a `file_share` message, downloaded by the bot with its token), so the
 * answer's footer shows what reached the agent (DESIGN "Files are context").
 */

/**
 * Larger local files are not shared: the bot downloads at most 2 MB of a file anyway (its footer
 * says "too big" above that, which a file under this bound still shows), and the stand-in holds
 * every shared file in memory.
 */
export const SANDBOX_FILE_MAX_BYTES = 8_000_000;

/** A local file read for sharing, or the sentence saying why it was not. */
export type LocalFile = { ok: true; name: string; content: Buffer } | { ok: false; why: string };

/** Why a local file could not be read, by node's error code. */
function unreadable(path: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `there is no file at ${path}`;
    case 'EACCES':
    case 'EPERM':
      return `${path} cannot be read (permission denied)`;
    default:
      return `${path} cannot be read (${error.code ?? error.message})`;
  }
}

/**
 * Reads `typed` (relative to `workingDir`, where the person ran `npm run sandbox`). A missing,
 * unreadable or oversized file is a sentence, and nothing is shared.
 */
export async function readLocalFile(typed: string, workingDir: string): Promise<LocalFile> {
  const path = resolve(workingDir, typed);
  const nothing = (why: string): LocalFile => ({ ok: false, why: `/file: ${why} — nothing was sent` });
  try {
    const info = await stat(path);
    if (info.isDirectory()) return nothing(`${path} is a folder, not a file`);
    // A device or a pipe (/dev/zero, a FIFO) may never end: only regular files are read.
    if (!info.isFile()) return nothing(`${path} is not a regular file`);
    if (info.size > SANDBOX_FILE_MAX_BYTES)
      return nothing(
        `${path} is ${formatBytes(info.size)}, more than the sandbox shares (${formatBytes(SANDBOX_FILE_MAX_BYTES)})`,
      );
    return { ok: true, name: basename(path), content: await readFile(path) };
  } catch (error) {
    return nothing(unreadable(path, error as NodeJS.ErrnoException));
  }
}

/**
 * The question asked with the file: the person's, or one naming the file when they typed none (or
 * only a `[sim …]` tag): an answer channel leaves a post without words alone.
 */
export function fileQuestion(name: string, typed = ''): string {
  if (typed.replace(/\[sim [^\]]*\]/g, '').trim() !== '') return typed;
  return `what does ${name} show? ${typed}`.trim();
}

/** What sharing a file needs from the session. */
export interface FileShareContext {
  slack: Pick<SlackStandin, 'shareFile'>;
  out: ChatOutput;
  /** Who shares it: the sandbox person, a member of the workspace (only their files count). */
  user: string;
  workingDir: string;
  /** Asks `text` with `files` in the current thread or a new one, as a typed line would. */
  ask(text: string, files: MessageFile[]): Promise<void>;
}

/** Reads the local file, shares it in the stand-in and asks the question with it. */
export async function shareLocalFile(ctx: FileShareContext, typed: string, question?: string): Promise<void> {
  const local = await readLocalFile(typed, ctx.workingDir);
  if (!local.ok) {
    ctx.out.line(speak(SPEAKER.sandbox, local.why));
    return;
  }
  const file = ctx.slack.shareFile({ user: ctx.user, name: local.name, content: local.content });
  const shared = { name: local.name, length: local.content.length };
  ctx.out.line(
    speak(SPEAKER.sandbox, fileLine(shared, `shared in #${SANDBOX_CHANNEL.name} with your question`)),
  );
  await ctx.ask(fileQuestion(local.name, question), [file]);
}
