import type { FetchFunction } from '@slack/web-api';
import { type Dispatcher, Pool } from 'undici';
import { bufferedRequest, RequestTimeoutError } from '../http/buffered-request.js';

/**
 * The Web client's `fetch`, on one keep-alive connection pool to the Slack API. A bot posts,
 * updates and deletes a few messages per turn; through the global fetch each call built a Request,
 * a Response, web streams and an `AbortSignal.timeout`, which cost more CPU than the call itself.
 * Here a form-encoded call (every ordinary API method) is one exchange on the pool whose body is
 * read straight off the socket, under one timer (http/buffered-request.ts). Anything else — a multipart file upload, another origin
 * (upload URLs) — goes to the global fetch unchanged.
 */

export interface SlackFetchOptions {
  /** The Web API base address (`SLACK_API_URL`). */
  apiUrl: string;
  /** Client-side timeout of one call, connect to last body byte. */
  timeoutMs: number;
  /** Connections kept to the API host at most. Default 64. */
  connections?: number | undefined;
  /** Default: a keep-alive pool of its own to the API host. */
  dispatcher?: Dispatcher | undefined;
}

/** The Web client's failure when no answer came in time (it wraps it in a request error and retries). */
export class SlackFetchTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  constructor(url: string, timeoutMs: number) {
    super(`Slack API call ${url} got no answer within ${timeoutMs} ms`);
  }
}

/** Headers as the Web client reads them: `get` and `entries`, names in lower case. */
class ResponseHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}

  get(name: string): string | null {
    const value = this.raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.raw)) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }
}

type FetchResponse = Awaited<ReturnType<FetchFunction>>;

/** A whole response, already read: the body is a string. */
class BufferedResponse implements FetchResponse {
  readonly headers: ResponseHeaders;
  constructor(
    readonly status: number,
    readonly url: string,
    headers: Record<string, string | string[] | undefined>,
    private readonly body: string,
  ) {
    this.headers = new ResponseHeaders(headers);
  }
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  get statusText(): string {
    return '';
  }
  async text(): Promise<string> {
    return this.body;
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.body);
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = Buffer.from(this.body, 'utf8');
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
}

/** Builds the fetch for `WebClientOptions.fetch`; give the client `timeout: 0`, the timeout is here. */
export function createSlackFetch(options: SlackFetchOptions): FetchFunction {
  const base = new URL(options.apiUrl);
  const origin = base.origin;
  const pool = options.dispatcher ?? new Pool(origin, { connections: options.connections ?? 64 });
  const { timeoutMs } = options;

  return async (input, init) => {
    const url = typeof input === 'string' ? input : input.href;
    const body = init?.body;
    // Uploads (FormData) and other hosts keep the standard path.
    if ((body !== undefined && typeof body !== 'string') || !url.startsWith(`${origin}/`)) {
      const signal = init?.signal ?? (timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined);
      return globalThis.fetch(url, { ...init, signal } as RequestInit);
    }
    try {
      const response = await bufferedRequest(
        pool,
        {
          path: url.slice(origin.length),
          method: (init?.method ?? 'GET') as Dispatcher.HttpMethod,
          headers: init?.headers ?? {},
          body: body ?? null,
        },
        { timeoutMs, signal: init?.signal },
      );
      return new BufferedResponse(response.status, url, response.headers, response.text);
    } catch (error) {
      if (error instanceof RequestTimeoutError) throw new SlackFetchTimeoutError(url, timeoutMs);
      throw error;
    }
  };
}
