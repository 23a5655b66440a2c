import { request } from 'undici';
import type { FileRead, FileReader } from '../conversation/context/file-gathering.js';
import type { Logger } from '../runtime/logger.js';

/** Slack's file host: `url_private_download` points there. */
export const SLACK_FILE_ORIGIN = 'https://files.slack.com';

/** One download's bound, headers and body together: a slow file must not hold the turn. */
const DOWNLOAD_TIMEOUT_MS = 10_000;

/** The origins the bot token may be sent to: a forged event's or an external file's URL is not fetched. */
export function allowedFileOrigins(apiUrl: string): Set<string> {
  return new Set([SLACK_FILE_ORIGIN, new URL(apiUrl).origin]);
}

/**
 * Reads shared files with the bot token (https://docs.slack.dev/messaging/working-with-files#downloading):
 * only from the allowed origins, within a time bound, stopping past `maxBytes`, and never following a
 * redirect (Slack redirects a bad token to its sign-in page; a redirect could lead the token elsewhere).
 */
export function createSlackFileReader(deps: {
  /** SLACK_API_URL: its origin is the only other host files are fetched from (the stand-in's). */
  apiUrl: string;
  /** The bot token of the installation under way (files:read); undefined: nothing is fetched. */
  token: () => string | undefined;
  logger: Logger;
  /** @default 10 s */
  timeoutMs?: number | undefined;
}): FileReader {
  const origins = allowedFileOrigins(deps.apiUrl);
  const timeoutMs = deps.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const failed = (file: { id: string }, why: string, extra: Record<string, unknown> = {}): FileRead => {
    deps.logger.warn({ file: file.id, why, ...extra }, 'shared file not read');
    return { ok: false, reason: 'download-failed' };
  };

  return {
    async read(file, maxBytes) {
      let url: URL;
      try {
        url = new URL(file.downloadUrl);
      } catch {
        return failed(file, 'not a URL');
      }
      if (!origins.has(url.origin)) return failed(file, 'not a Slack file host', { host: url.host });
      const token = deps.token();
      if (!token) return failed(file, 'no bot token');
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        // undici's request follows no redirect unless told to.
        const response = await request(url, {
          method: 'GET',
          headers: { authorization: `Bearer ${token}` },
          signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const contentType = String(response.headers['content-type'] ?? '');
        const signInPage =
          contentType.startsWith('text/html') && !(file.mimetype ?? '').startsWith('text/html');
        if (response.statusCode !== 200 || signInPage) {
          await response.body.dump();
          return failed(file, signInPage ? 'sign-in page' : 'status', { status: response.statusCode });
        }
        const declared = Number(response.headers['content-length']);
        if (declared > maxBytes) {
          await response.body.dump();
          return { ok: false, reason: 'too-big' };
        }
        const chunks: Buffer[] = [];
        let length = 0;
        for await (const chunk of response.body) {
          length += (chunk as Buffer).length;
          if (length > maxBytes) {
            response.body.destroy();
            return { ok: false, reason: 'too-big' };
          }
          chunks.push(chunk as Buffer);
        }
        return { ok: true, bytes: Buffer.concat(chunks) };
      } catch (error) {
        return failed(file, signal.aborted ? 'timeout' : ((error as { code?: string }).code ?? 'network'));
      }
    },
  };
}
