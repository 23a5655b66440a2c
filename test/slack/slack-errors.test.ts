import {
  ErrorCode,
  type WebAPIHTTPError,
  type WebAPIPlatformError,
  type WebAPIRateLimitedError,
  type WebAPIRequestError,
} from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { ThreadOutputError } from '../../src/conversation/turn/output-error.js';
import { classifySlackError, toThreadOutputError } from '../../src/slack/slack-errors.js';

/** A platform error as the Web client throws it for `{ok:false, error}`. */
const platform = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: ErrorCode.PlatformError,
    data: { ok: false, error },
  }) as WebAPIPlatformError;
const http = (statusCode: number) =>
  Object.assign(new Error(`An HTTP protocol error occurred: statusCode = ${statusCode}`), {
    code: ErrorCode.HTTPError,
    statusCode,
  }) as WebAPIHTTPError;
const network = Object.assign(new Error('A request error occurred: ECONNREFUSED'), {
  code: ErrorCode.RequestError,
}) as WebAPIRequestError;
const rateLimited = Object.assign(new Error('A rate limit was exceeded'), {
  code: ErrorCode.RateLimitedError,
  retryAfter: 3,
}) as WebAPIRateLimitedError;

/** What the Web client throws when a call is still refused with a 429 after its last retry. */
const stillLimited = Object.assign(new Error('A request error occurred: A rate limit was exceeded'), {
  code: ErrorCode.RequestError,
  original: new Error('A rate limit was exceeded (url: http://127.0.0.1/api/chat.update, retry-after: 1)'),
}) as WebAPIRequestError;

describe('classifySlackError', () => {
  it.each([
    // transient: Slack or the network having a moment
    ['ratelimited', platform('ratelimited'), 'transient', 'ratelimited'],
    ['internal_error', platform('internal_error'), 'transient', 'internal_error'],
    ['fatal_error', platform('fatal_error'), 'transient', 'fatal_error'],
    ['service_unavailable', platform('service_unavailable'), 'transient', 'service_unavailable'],
    ['request_timeout', platform('request_timeout'), 'transient', 'request_timeout'],
    ['HTTP 500', http(500), 'transient', 'http_500'],
    ['HTTP 503', http(503), 'transient', 'http_503'],
    ['HTTP 408', http(408), 'transient', 'http_408'],
    ['a network failure', network, 'transient', 'network'],
    ['a rejected rate-limited call', rateLimited, 'transient', 'ratelimited'],
    ['still rate limited after the last retry', stillLimited, 'transient', 'ratelimited'],
    [
      'a 429 without a usable Retry-After',
      new Error('Retry header did not contain a valid timeout (url: x, retry-after header: soon)'),
      'transient',
      'ratelimited',
    ],
    ['an unknown error', new Error('bug'), 'transient', 'unexpected'],
    // permanent: the same answer however often it is asked
    ['not_in_channel', platform('not_in_channel'), 'permanent', 'not_in_channel'],
    ['channel_not_found', platform('channel_not_found'), 'permanent', 'channel_not_found'],
    ['is_archived', platform('is_archived'), 'permanent', 'is_archived'],
    ['account_inactive', platform('account_inactive'), 'permanent', 'account_inactive'],
    ['invalid_auth', platform('invalid_auth'), 'permanent', 'invalid_auth'],
    ['token_revoked', platform('token_revoked'), 'permanent', 'token_revoked'],
    ['no_permission', platform('no_permission'), 'permanent', 'no_permission'],
    ['restricted_action', platform('restricted_action'), 'permanent', 'restricted_action'],
    ['an error Slack may add later', platform('some_new_refusal'), 'permanent', 'some_new_refusal'],
    ['HTTP 404', http(404), 'permanent', 'http_404'],
    // content: this rendering was refused
    ['msg_too_long', platform('msg_too_long'), 'content', 'msg_too_long'],
    ['invalid_blocks', platform('invalid_blocks'), 'content', 'invalid_blocks'],
    ['invalid_blocks_format', platform('invalid_blocks_format'), 'content', 'invalid_blocks_format'],
    ['too_many_blocks', platform('too_many_blocks'), 'content', 'too_many_blocks'],
    ['no_text', platform('no_text'), 'content', 'no_text'],
  ])('%s', (_name, error, kind, code) => {
    expect(classifySlackError(error)).toEqual({ kind, code });
  });

  it('wraps the failure for the conversation layer, keeping the original as its cause', () => {
    const original = platform('not_in_channel');
    const wrapped = toThreadOutputError('chat.postMessage', original);
    expect(wrapped).toBeInstanceOf(ThreadOutputError);
    expect(wrapped).toMatchObject({ kind: 'permanent', code: 'not_in_channel', method: 'chat.postMessage' });
    expect(wrapped.cause).toBe(original);
  });
});
