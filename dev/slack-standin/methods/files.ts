import { randomBytes } from 'node:crypto';
import { parseJsonArg } from '../limits.js';
import type { StandinState } from '../state.js';
import { nextSlackTs } from '../ts-clock.js';
import type { StoredFile } from '../types.js';
import { channelProblem, type MethodHandler, str } from './context.js';

/** Path prefix of the upload URLs the stand-in hands out (Slack's are https://files.slack.com/upload/v1/…). */
export const UPLOAD_PATH_PREFIX = '/upload/v1/';

function newFileId(): string {
  return `F${randomBytes(5).toString('hex').toUpperCase()}`;
}

/** files.getUploadURLExternal: reserves a file id and an upload URL pointing back at the stand-in. */
export const getUploadURLExternal: MethodHandler = (args, { state, baseUrl }) => {
  const filename = str(args.filename);
  const length = Number(str(args.length));
  if (!filename || !Number.isInteger(length) || length < 0) return { ok: false, error: 'invalid_arguments' };
  const id = newFileId();
  state.files.set(id, {
    id,
    name: filename,
    title: filename,
    length,
    content: Buffer.alloc(0),
    text: '',
    completed: false,
  });
  return { ok: true, upload_url: `${baseUrl}${UPLOAD_PATH_PREFIX}${id}`, file_id: id };
};

/** Stores the bytes POSTed to an upload URL; false when the file id was never handed out. */
export function receiveUpload(state: StandinState, fileId: string, content: Buffer): boolean {
  const file = state.files.get(fileId);
  if (!file || file.completed) return false;
  file.content = content;
  file.text = content.toString('utf8');
  state.touch();
  return true;
}

function publicFile(file: StoredFile): Record<string, unknown> {
  return {
    id: file.id,
    name: file.name,
    title: file.title,
    size: file.content.length,
    channels: file.channel ? [file.channel] : [],
  };
}

/**
 * files.completeUploadExternal: finishes the uploads and, with `channel_id`, shares them in the
 * channel (or `thread_ts`) as one bot message carrying `initial_comment` and the files — which is
 * what a person sees in Slack.
 */
export const completeUploadExternal: MethodHandler = (args, { state }) => {
  const parsed = parseJsonArg(args.files);
  if (!parsed.ok || !Array.isArray(parsed.value) || parsed.value.length === 0) {
    return { ok: false, error: 'invalid_arguments' };
  }
  const entries = parsed.value as { id?: string; title?: string }[];
  const files = entries.map((e) => state.files.get(e.id ?? ''));
  if (files.some((f) => !f || f.completed)) return { ok: false, error: 'file_not_found' };
  const channel = str(args.channel_id);
  if (channel) {
    const problem = channelProblem(state, channel);
    if (problem) return problem;
  }
  const threadTs = str(args.thread_ts);
  const initialComment = str(args.initial_comment);
  const done = files as StoredFile[];
  for (const [i, file] of done.entries()) {
    file.title = entries[i]?.title ?? file.name;
    file.completed = true;
    if (channel) file.channel = channel;
    if (threadTs) file.thread_ts = threadTs;
    if (initialComment) file.initial_comment = initialComment;
  }
  if (channel) {
    const { teamId, botUserId, botId, appId } = state.identity;
    state.addMessage({
      type: 'message',
      channel,
      ts: nextSlackTs(),
      user: botUserId,
      bot_id: botId,
      app_id: appId,
      team: teamId,
      text: initialComment ?? '',
      files: done.map((f) => ({ id: f.id, name: f.name, title: f.title })),
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
  }
  state.touch();
  return { ok: true, files: done.map(publicFile) };
};
