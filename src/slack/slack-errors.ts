/**
 * The one place that sorts Slack Web API failures into the classes delivery acts on (see
 * src/conversation/output-error.ts). Slack answers HTTP 200 with `{ok:false, error}` for most
 * refusals (https://docs.slack.dev/reference/methods/chat.postMessage#errors); the Web client
 * throws them as platform errors, 5xx answers as HTTP errors and network failures as request errors,
 * each after its own retries (web-client.ts), so what reaches us has already been retried.
 */
import { ErrorCode } from '@slack/web-api';
import { type OutputFailureKind, ThreadOutputError } from '../conversation/turn/output-error.js';

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
 * A 429 the Web client did not turn into a rate-limited error. After the last retry of a call whose
 * Retry-After it waited out, it throws a request error around `A rate limit was exceeded (url: …,
 * retry-after: …)`; for a 429 without a usable Retry-After, a plain `Retry header did not contain a
 * valid timeout …`. web-api 8 gives neither a code of its own, only this text; the real client
 * against the stand-in pins it (test/slack/web-client.test.ts).
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

/**
 * Slack's error name and its class. Every other platform error (`not_in_channel`,
 * `channel_not_found`, `is_archived`, `account_inactive`, `invalid_auth`, `token_revoked`,
 * `no_permission`, `restricted_action`, …) is permanent: Slack answers the same request the same way
 * however often it is sent.
 */
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
