import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Files people share in Slack, as the stand-in plays them: the file object Slack puts on a
 * `file_share` message (and on that message in `conversations.replies`), and the download at its
 * `url_private_download` on the stand-in's own host. Like Slack, the download wants the bot token
 * (`Authorization: Bearer`); without a valid one Slack redirects to its sign-in page.
 * Shape: https://docs.slack.dev/reference/objects/file-object
 */

/** Path prefix of private file URLs (Slack's are https://files.slack.com/files-pri/T…-F…/…). */
export const FILE_PATH_PREFIX = '/files-pri/';

/** A file a person shares: its name and content; the rest defaults as Slack would set it. */
export interface SharedFileInput {
  /** Who shares it. Default 'UALICE'. */
  user?: string;
  name: string;
  content: string | Buffer;
  /**
   * Default from the extension; for an extension not in the table, text/plain when the content is
   * text (Slack recognises plain text whatever the name), application/octet-stream otherwise.
   */
  mimetype?: string;
  /** Slack's short type (`text`, `json`, `png`…). Default: the extension (`text` for plain text sniffed). */
  filetype?: string;
  /**
   * The download URL to hand out instead of the stand-in's own (a forged or foreign file object):
   * nothing is served for it here.
   */
  downloadUrl?: string;
  /** Slack Connect and hidden files come with `check_file_info` and no usable URL. Default 'visible'. */
  fileAccess?: 'visible' | 'check_file_info';
}

interface Served {
  content: Buffer;
  mimetype: string;
  /** The next downloads answer this HTTP status instead (a stand-in fault). */
  failures: number[];
}

/** One download as the stand-in saw it: which file, and whether the bot token came with it. */
export interface FileDownload {
  fileId: string;
  authorized: boolean;
  status: number;
}

const TEXT_TYPES: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
  yaml: 'application/x-yaml',
  yml: 'application/x-yaml',
  xml: 'application/xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  zip: 'application/zip',
  pdf: 'application/pdf',
};

/** Whether bytes read as text: UTF-8 without a NUL byte (how Slack tells a plain-text upload). */
function looksLikeText(content: Buffer): boolean {
  if (content.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(content);
    return true;
  } catch {
    return false;
  }
}

/** Slack's mimetype and short type for a file: by its extension, else by its content. */
function typesOf(extension: string, content: Buffer): { mimetype: string; filetype?: string } {
  const known = TEXT_TYPES[extension];
  if (known) return { mimetype: known };
  return looksLikeText(content)
    ? { mimetype: 'text/plain', filetype: 'text' }
    : { mimetype: 'application/octet-stream' };
}

/** The shared files' contents and the downloads made, for the router and the tests. */
export class SharedFileBook {
  private readonly served = new Map<string, Served>();
  readonly downloads: FileDownload[] = [];

  /** Registers a file and returns the file object Slack would put on the message. */
  share(input: SharedFileInput, where: { baseUrl: string; teamId: string }): Record<string, unknown> {
    const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
    const extension = input.name.includes('.') ? (input.name.split('.').pop() ?? '').toLowerCase() : '';
    const content = Buffer.isBuffer(input.content) ? input.content : Buffer.from(input.content, 'utf8');
    const guessed = typesOf(extension, content);
    const mimetype = input.mimetype ?? guessed.mimetype;
    const filetype = input.filetype ?? guessed.filetype ?? (extension || 'binary');
    this.served.set(id, { content, mimetype, failures: [] });
    const slug = encodeURIComponent(input.name.toLowerCase().replace(/\s+/g, '_'));
    const base = `${where.baseUrl}${FILE_PATH_PREFIX}${where.teamId}-${id}`;
    const now = Math.floor(Date.now() / 1000);
    const user = input.user ?? 'UALICE';
    if (input.fileAccess === 'check_file_info')
      return { id, mode: 'hidden_by_limit', file_access: 'check_file_info' };
    return {
      id,
      created: now,
      timestamp: now,
      name: input.name,
      title: input.name,
      mimetype,
      filetype,
      pretty_type: filetype === 'binary' ? 'Binary' : filetype.toUpperCase(),
      user,
      user_team: where.teamId,
      editable: mimetype.startsWith('text/'),
      size: content.length,
      mode: 'hosted',
      is_external: false,
      external_type: '',
      is_public: true,
      public_url_shared: false,
      display_as_bot: false,
      username: '',
      url_private: `${base}/${slug}`,
      url_private_download: input.downloadUrl ?? `${base}/download/${slug}`,
      permalink: `${where.baseUrl}/files/${user}/${id}/${slug}`,
      is_starred: false,
      has_rich_preview: false,
      file_access: 'visible',
    };
  }

  /** The next `count` downloads of the file answer HTTP `status` (e.g. 500). */
  failNext(fileId: string, status: number, count = 1): void {
    const served = this.served.get(fileId);
    if (!served) throw new Error(`no shared file ${fileId}`);
    for (let i = 0; i < count; i += 1) served.failures.push(status);
  }

  /**
   * GET /files-pri/<team>-<file id>/download/<name>: the bytes with the valid bot token; without
   * it a 302 to the sign-in page, as Slack answers; an unknown file 404.
   */
  handle(req: IncomingMessage, res: ServerResponse, acceptsToken: (token: string) => boolean): void {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const match = /^\/files-pri\/[A-Z0-9]+-(F[A-Z0-9]+)\/download\//.exec(path);
    const fileId = match?.[1] ?? '';
    const served = this.served.get(fileId);
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    const authorized = token !== '' && acceptsToken(token);
    const answer = (status: number, headers: Record<string, string>, body: Buffer | string) => {
      this.downloads.push({ fileId, authorized, status });
      res.writeHead(status, headers).end(body);
    };
    const failure = authorized ? served?.failures.shift() : undefined;
    if (!authorized) {
      // Slack's answer to a download without a valid token: its sign-in page, by a redirect.
      const location = `/?redirect=${encodeURIComponent(path)}`;
      answer(302, { location, 'content-type': 'text/html' }, '');
    } else if (!served) answer(404, { 'content-type': 'text/plain' }, 'file not found');
    else if (failure !== undefined) answer(failure, { 'content-type': 'text/plain' }, 'file unavailable');
    else
      answer(
        200,
        { 'content-type': served.mimetype, 'content-length': String(served.content.length) },
        served.content,
      );
  }
}
