import { describe, expect, it } from 'vitest';
import { boundLogger } from '../../src/runtime/logger.js';
import { memoryLogger } from '../support/memory-log.js';

describe('boundLogger', () => {
  it('writes its bindings on every line, through the production logger', () => {
    const { logger, records } = memoryLogger('debug');
    const log = boundLogger(logger, { turnId: 't-1', threadKey: 'T1:C1:1.0' });
    log.info({ status: 'done' }, 'answer posted');
    log.error({ err: new Error('boom') }, 'failed');
    const [info, error] = records();
    expect(info).toMatchObject({
      turnId: 't-1',
      threadKey: 'T1:C1:1.0',
      status: 'done',
      msg: 'answer posted',
    });
    expect(error).toMatchObject({ turnId: 't-1', level: 'error', msg: 'failed', err: { message: 'boom' } });
  });

  it('lets a line override a binding, and a child add bindings', () => {
    const { logger, records } = memoryLogger('debug');
    const log = boundLogger(logger, { turnId: 't-1', phase: 'start' }).child({ sessionId: 's-1' });
    log.warn({ phase: 'poll' }, 'slow');
    expect(records()[0]).toMatchObject({ turnId: 't-1', sessionId: 's-1', phase: 'poll', msg: 'slow' });
  });

  it('writes nothing below the level, and still redacts what it writes', () => {
    const { logger, lines, records } = memoryLogger('info');
    const log = boundLogger(logger, { turnId: 't-1' });
    log.debug({ prompt: 'secret question' }, 'turn prompt');
    expect(lines()).toEqual([]);
    log.info({ headers: { authorization: 'Bearer xoxb-not-a-real-token' } }, 'call');
    expect(JSON.stringify(records())).not.toContain('xoxb-not-a-real-token');
  });

  it('makes no child logger of its parent', () => {
    const calls: string[] = [];
    const parent = {
      debug: () => calls.push('debug'),
      info: () => calls.push('info'),
      warn: () => calls.push('warn'),
      error: () => calls.push('error'),
      child: () => {
        throw new Error('child() must not be called');
      },
    };
    boundLogger(parent, { turnId: 't-1' }).child({ more: 1 }).info({}, 'x');
    expect(calls).toEqual(['info']);
  });
});
