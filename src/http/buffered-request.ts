import { type Dispatcher, util } from 'undici';

/**
 * One HTTP exchange on an undici pool, the whole body read into a string: the HTTP client under
 * the Slack Web client's fetch (slack/slack-fetch.ts), its only user; it goes when that transport
 * does. (The agent service is called through ky: agent-api/service-http.ts.) It talks to the
 * pool's dispatch handler directly, so an exchange costs no response stream, no AbortController
 * and no AbortSignal: the timeout is one timer that aborts the exchange itself, and a caller's
 * signal (when there is one) gets one listener.
 */

export interface BufferedResponse {
  status: number;
  /** Lower-case names; a repeated header is an array. */
  headers: Record<string, string | string[]>;
  text: string;
}

export interface BufferedRequestOptions {
  /** Connect to the last byte of the body; 0 for none. */
  timeoutMs: number;
  /** Aborts the exchange; the promise rejects with the signal's reason. */
  signal?: AbortSignal | null | undefined;
}

/** No whole answer within the timeout. */
export class RequestTimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly code = 'REQUEST_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

type Abort = (reason?: Error) => void;

/** Sends `request` through `dispatcher` and resolves with the status, headers and body text. */
export function bufferedRequest(
  dispatcher: Dispatcher,
  request: Dispatcher.DispatchOptions,
  options: BufferedRequestOptions,
): Promise<BufferedResponse> {
  const { signal, timeoutMs } = options;
  return new Promise<BufferedResponse>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    let abortExchange: Abort | undefined;
    /** Why we gave up before undici could be told (it is told at onConnect). */
    let stopReason: unknown;
    let status = 0;
    let headers: Buffer[] = [];
    const chunks: Buffer[] = [];

    const settle = (error: unknown, response?: BufferedResponse) => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      if (response) resolve(response);
      else reject(error);
    };
    const stop = (reason: unknown) => {
      settle(reason);
      stopReason = reason;
      abortExchange?.(reason as Error);
    };
    const onCallerAbort = () => stop(signal?.reason);
    const timer =
      timeoutMs > 0 ? setTimeout(() => stop(new RequestTimeoutError(timeoutMs)), timeoutMs) : undefined;
    signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      dispatcher.dispatch(request, {
        onConnect(abort) {
          if (settled) abort(stopReason as Error);
          else abortExchange = abort;
        },
        onHeaders(statusCode, rawHeaders) {
          status = statusCode;
          headers = rawHeaders;
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          const text =
            chunks.length === 1
              ? (chunks[0] as Buffer).toString('utf8')
              : Buffer.concat(chunks).toString('utf8');
          settle(undefined, { status, headers: util.parseHeaders(headers), text });
        },
        onError(error) {
          settle(error);
        },
      });
    } catch (error) {
      settle(error);
    }
  });
}
