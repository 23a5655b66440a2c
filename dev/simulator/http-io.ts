/** Request and response plumbing shared by the simulator's handlers. */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a handler answers; the server writes it. */
export interface SimResponse {
  status: number;
  /** Serialised as JSON unless `text` is set. */
  body?: unknown;
  /** Raw body text (e.g. a gateway's HTML page); wins over `body`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A parsed request body: absent, JSON, or text that is not JSON. */
export type ParsedBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid'; text: string };

const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The service's usual error body: `{errorCode, message, requestId, parameters}`. */
export function errorResponse(
  status: number,
  errorCode: string,
  message: string,
  headers?: Record<string, string>,
) {
  const body = { errorCode, message, requestId: randomBytes(8).toString('hex'), parameters: {} };
  return { status, body, ...(headers && { headers }) } satisfies SimResponse;
}

/** A 400 for a body the seed's schema refuses. */
export function invalidBody(message: string): SimResponse {
  return errorResponse(400, 'INVALID_REQUEST', message);
}

/** Reads the whole body; bodies past a few MB are cut off and count as invalid. */
export async function readBody(req: IncomingMessage): Promise<ParsedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return { kind: 'invalid', text: '(body too large)' };
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid', text };
  }
}

/** The JSON value of a body, or undefined when it is absent or not JSON. */
export function jsonOf(body: ParsedBody): unknown {
  return body.kind === 'json' ? body.value : undefined;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Resolves after ms, or at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
