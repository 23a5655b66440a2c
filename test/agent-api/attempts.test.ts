import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logsDebug } from '../../src/agent-api/attempts.js';
import { testClient } from './support/client.js';
import { inOrder, startScriptedServer } from './support/scripted-server.js';

/** The per-attempt debug line is built only when the logger writes debug lines. */

const sink = () => {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => lines.push(line) } };
};

describe('logsDebug', () => {
  it('asks pino for its level, and assumes yes of a logger without a level check', () => {
    expect(logsDebug(pino({ level: 'warn' }, sink().stream))).toBe(false);
    expect(logsDebug(pino({ level: 'debug' }, sink().stream))).toBe(true);
    const log = () => undefined;
    const plain = { debug: log, info: log, warn: log, error: log, child: () => plain };
    expect(logsDebug(plain)).toBe(true);
    expect(logsDebug(undefined)).toBe(false);
  });

  it('a pino logger at debug gets one line per attempt', async () => {
    const server = await startScriptedServer(
      inOrder({ status: 503 }, { status: 200, body: { accountId: 1, accountName: 'x' } }),
    );
    try {
      const { lines, stream } = sink();
      const { api } = testClient(server.url, { logger: pino({ level: 'debug' }, stream) });
      await api.whoami();
      const attempts = lines
        .map((line) => JSON.parse(line))
        .filter((line) => line.msg === 'agent service request');
      expect(attempts.map((line) => [line.endpoint, line.status])).toEqual([
        ['whoami', 503],
        ['whoami', 200],
      ]);
    } finally {
      await server.close();
    }
  });
});
