import { describe, expect, it } from 'vitest';
import { type ListedConnection, registryConnections } from '../../src/home/service-connections.js';

const HOME = { teamId: 'T1', home: true, key: undefined };
const OTHER = { teamId: 'T2', home: false, key: 'T2' };

const ROWS: ListedConnection[] = [
  { alias: 'default', region: 'api-eu.example.io', health: 'ok', accountId: 5, accountName: 'Prod' },
  { alias: 'staging', region: 'api.example.io', health: 'failing', problem: 'token-rejected' },
];

describe('registryConnections', () => {
  it('lists each connection with its account or its problem, reusing the answers for a minute', async () => {
    let now = 0;
    let calls = 0;
    const connections = registryConnections({
      list: async () => {
        calls += 1;
        return ROWS;
      },
      aliases: async () => ['staging'],
      now: () => now,
    });
    const expected = [
      { alias: 'default', host: 'api-eu.example.io', account: { id: 5, name: 'Prod' }, health: 'ok' },
      { alias: 'staging', host: 'api.example.io', health: 'token-rejected' },
    ];
    expect(await connections.list(HOME)).toEqual(expected);
    now += 59_999;
    expect(await connections.list(HOME)).toEqual(expected);
    expect(calls).toBe(1);
    now += 1;
    await connections.list(HOME);
    expect(calls).toBe(2);
  });

  it('asks again at once when a connection was added or removed, and keeps each installation apart', async () => {
    let aliases = ['staging'];
    const asked: string[] = [];
    const connections = registryConnections({
      list: async (tenant) => {
        asked.push(tenant.teamId);
        return ROWS;
      },
      aliases: async () => aliases,
      now: () => 0,
    });
    await connections.list(HOME);
    await connections.list(HOME);
    aliases = ['staging', 'qa'];
    await connections.list(HOME);
    await connections.list(OTHER);
    expect(asked).toEqual(['T1', 'T1', 'T2']);
  });
});
