import { ErrorCode, type WebAPIPlatformError } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { ThreadOutputError } from '../../src/conversation/turn/output-error.js';
import { countedCall } from '../../src/slack/slack-errors.js';
import { memoryLogger } from '../support/memory-log.js';

const platform = (error: string) =>
  Object.assign(new Error(`An API error occurred: ${error}`), {
    code: ErrorCode.PlatformError,
    data: { ok: false, error },
  }) as WebAPIPlatformError;

/** countedCall with its failures counted in a list and logged to memory (debug and up). */
function setUp() {
  const counted: Array<[string, string]> = [];
  const log = memoryLogger('debug');
  const call = countedCall({
    logger: log.logger,
    metrics: { slackApiError: (method, error) => counted.push([method, error]) },
  });
  return { call, counted, log };
}

describe('countedCall (the thread output Web API calls)', () => {
  it('passes an answer through and counts nothing', async () => {
    const { call, counted, log } = setUp();
    await expect(call('chat.postMessage', async () => ({ ts: '1.2' }))).resolves.toEqual({ ts: '1.2' });
    expect(counted).toEqual([]);
    expect(log.records()).toEqual([]);
  });

  it('rethrows a refusal classified, counts it by method and code, and warns naming the method', async () => {
    const { call, counted, log } = setUp();
    const failure = await call('chat.postMessage', () => Promise.reject(platform('channel_not_found'))).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ThreadOutputError);
    expect(failure).toMatchObject({
      kind: 'permanent',
      code: 'channel_not_found',
      method: 'chat.postMessage',
    });
    expect(counted).toEqual([['chat.postMessage', 'channel_not_found']]);
    expect(log.records()).toMatchObject([
      { level: 'warn', method: 'chat.postMessage', error: 'channel_not_found', kind: 'permanent' },
    ]);
  });

  it('logs a passing failure at debug only: the retrying caller logs it', async () => {
    const { call, counted, log } = setUp();
    await expect(call('chat.update', () => Promise.reject(platform('ratelimited')))).rejects.toMatchObject({
      kind: 'transient',
      code: 'ratelimited',
    });
    expect(counted).toEqual([['chat.update', 'ratelimited']]);
    expect(log.records()).toMatchObject([
      { level: 'debug', msg: 'Slack API call failed', kind: 'transient' },
    ]);
  });
});
