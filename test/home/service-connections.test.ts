import { describe, expect, it } from 'vitest';
import { AgentApiError, AgentApiErrorCode } from '../../src/agent-api/errors.js';
import { combineConnections, defaultConnection } from '../../src/home/service-connections.js';

const HOME = { teamId: 'T1', home: true, key: undefined };

describe('defaultConnection', () => {
  it('says the account and health from whoami, reusing the answer for a minute', async () => {
    let now = 0;
    let calls = 0;
    const connections = defaultConnection({
      baseUrl: 'https://api-eu.example.io/base',
      now: () => now,
      whoami: async () => {
        calls += 1;
        return { accountId: 5, accountName: 'Prod' };
      },
    });
    const expected = [
      { alias: 'default', host: 'api-eu.example.io', account: { id: 5, name: 'Prod' }, health: 'ok' },
    ];
    expect(await connections.list(HOME)).toEqual(expected);
    now += 59_999;
    expect(await connections.list(HOME)).toEqual(expected);
    expect(calls).toBe(1);
    now += 1;
    await connections.list(HOME);
    expect(calls).toBe(2);
  });

  it.each([
    [new AgentApiError(AgentApiErrorCode.TokenRejected, 'no', { status: 401 }), 'token-rejected'],
    [new Error('socket hang up'), 'unavailable'],
  ])('judges %s as %s', async (error, health) => {
    const connections = defaultConnection({
      baseUrl: 'https://api.example.io',
      whoami: async () => {
        throw error;
      },
    });
    expect(await connections.list(HOME)).toEqual([{ alias: 'default', host: 'api.example.io', health }]);
  });

  it('lists several sources in order', async () => {
    const one = { list: async () => [{ alias: 'a', host: 'h', health: 'ok' as const }] };
    const two = { list: async () => [{ alias: 'b', host: 'h', health: 'unavailable' as const }] };
    expect((await combineConnections(one, two).list(HOME)).map((row) => row.alias)).toEqual(['a', 'b']);
  });
});
