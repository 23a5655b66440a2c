import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, toSlackLogger } from '../src/logging.js';

function capture(level: string) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger({ level, destination }), lines };
}

/** Counts how often a log argument is turned into text. */
function counted() {
  const part = {
    serialised: 0,
    toJSON() {
      part.serialised += 1;
      return { token: 'xoxb-test-not-a-real-token' };
    },
  };
  return part;
}

describe('the Slack logger adapter', () => {
  it('does not build or scrub the text of lines below the level', () => {
    const { logger, lines } = capture('warn');
    const slack = toSlackLogger(logger);
    const part = counted();
    slack.debug('http request body:', part);
    slack.info('initialized', part);
    expect(part.serialised).toBe(0);
    expect(lines).toHaveLength(0);
  });

  it('writes enabled lines as JSON with token-shaped strings scrubbed', () => {
    const { logger, lines } = capture('debug');
    const slack = toSlackLogger(logger);
    const part = counted();
    slack.debug('http request body:', part);
    expect(part.serialised).toBe(1);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as { level: string; component: string; msg: string };
    expect(line).toMatchObject({ level: 'debug', component: 'slack' });
    expect(line.msg).toContain('http request body:');
    expect(line.msg).not.toContain('xoxb-test');
  });
});
