/**
 * The one place that sorts Slack Web API failures into the classes delivery acts on
 * (conversation/turn/output-error.ts). Whatever reaches us the Web client has already retried
 * (web-client.ts). https://docs.slack.dev/reference/methods/chat.postMessage#errors
 */
import { ErrorCode, type WebClient } from '@slack/web-api';
import { type OutputFailureKind, ThreadOutputError } from '../conversation/turn/output-error.js';
import type { StatusResult } from '../conversation/turn/turn-progress.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from '../runtime/logger.js';

/** Slack's own "try again later" answers. */
const TRANSIENT = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'timeout',
]);

/** This rendering of the message was refused; another rendering of the same content may pass. */
const CONTENT = new Set([
  'msg_too_long',
  'invalid_blocks',
  'invalid_blocks_format',
  'too_many_blocks',
  'invalid_attachments',
  'too_many_attachments',
  'markdown_text_conflict',
  'invalid_metadata_format',
  'invalid_metadata_schema',
  'metadata_too_large',
  'no_text',
]);

/**
 * A 429 the Web client did not turn into a rate-limited error (after its last retry, or without a
 * usable Retry-After): web-api 8 gives it no code, only this text (pinned by test/slack/web-client.test.ts).
 */
const WEB_CLIENT_RATE_LIMIT = /^(A rate limit was exceeded|Retry header did not contain a valid timeout)/;

const isRateLimitText = (error: unknown) =>
  error instanceof Error && WEB_CLIENT_RATE_LIMIT.test(error.message);

interface SlackErrorShape {
  code?: unknown;
  statusCode?: unknown;
  data?: { error?: unknown };
  original?: unknown;
}

/** Slack's error name and its class; other platform errors are permanent: Slack answers alike again. */
export function classifySlackError(error: unknown): { kind: OutputFailureKind; code: string } {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SlackErrorShape;
  switch (shape.code) {
    case ErrorCode.PlatformError: {
      const code = typeof shape.data?.error === 'string' ? shape.data.error : 'unknown_error';
      if (TRANSIENT.has(code)) return { kind: 'transient', code };
      return { kind: CONTENT.has(code) ? 'content' : 'permanent', code };
    }
    case ErrorCode.HTTPError: {
      const status = typeof shape.statusCode === 'number' ? shape.statusCode : 0;
      const transient = status >= 500 || status === 408 || status === 429 || status === 0;
      return { kind: transient ? 'transient' : 'permanent', code: `http_${status}` };
    }
    case ErrorCode.RateLimitedError:
      return { kind: 'transient', code: 'ratelimited' };
    case ErrorCode.RequestError:
      return { kind: 'transient', code: isRateLimitText(shape.original) ? 'ratelimited' : 'network' };
    case ErrorCode.FileUploadInvalidArgumentsError:
    case ErrorCode.FileUploadReadFileDataError:
      return { kind: 'content', code: String(shape.code) };
    default:
      if (isRateLimitText(error)) return { kind: 'transient', code: 'ratelimited' };
      // An error of our own making or an unknown failure: trying again is the safe side.
      return { kind: 'transient', code: typeof shape.code === 'string' ? shape.code : 'unexpected' };
  }
}

/** Wraps a Web API failure as the conversation layer's ThreadOutputError. */
export function toThreadOutputError(method: string, error: unknown): ThreadOutputError {
  const { kind, code } = classifySlackError(error);
  return new ThreadOutputError(kind, code, method, { cause: error });
}

/** Answers that mean a Slack feature cannot work for this app or workspace (its token, scopes, plan). */
export const FEATURE_UNAVAILABLE = [
  'unknown_method',
  'not_allowed_token_type',
  'missing_scope',
  'feature_not_enabled',
  'not_allowed',
  'method_deprecated',
];

/** A Web API call run by {@link countedCall}. */
export type CountedCall = <T>(method: string, run: () => Promise<T>) => Promise<T>;

/** Runs thread-output calls: a failure is counted and rethrown classified, as a ThreadOutputError. */
export function countedCall(deps: Omit<StatusCallDeps, 'client'>): CountedCall {
  return async (method, run) => {
    try {
      return await run();
    } catch (error) {
      const failure = toThreadOutputError(method, error);
      deps.metrics.slackApiError(method, failure.code);
      // A passing failure is logged by the retrying caller; a refusal here, naming the method.
      const level = failure.kind === 'transient' ? 'debug' : 'warn';
      deps.logger[level]({ method, error: failure.code, kind: failure.kind }, 'Slack API call failed');
      throw failure;
    }
  };
}

/** What a best-effort status call needs: its client, and where a failure is logged and counted. */
export interface StatusCallDeps {
  client: WebClient;
  logger: Logger;
  metrics: Pick<Metrics, 'slackApiError'>;
}

/**
 * Runs a native status or session call: a failure is counted and returned, never thrown; it is
 * `unavailable` when `unavailable` names its code (anything else, ratelimited or 5xx, passes).
 */
export async function statusCall(
  deps: StatusCallDeps,
  method: string,
  unavailable: ReadonlySet<string>,
  work: () => Promise<unknown>,
): Promise<StatusResult> {
  try {
    await work();
    return { ok: true };
  } catch (error) {
    // The platform error code (`data.error`), else the Web client's own.
    const code =
      (error as { data?: { error?: string } }).data?.error ?? (error as { code?: string }).code ?? 'unknown';
    deps.metrics.slackApiError(method, code);
    deps.logger.debug({ method, error: code }, 'Slack API call failed');
    return { ok: false, unavailable: unavailable.has(code), error: code };
  }
}
