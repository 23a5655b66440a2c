import { describe, expect, it } from 'vitest';
import { agentRows } from '../../src/home/home-data.js';

const seen = (agentId: string, installation?: string) => ({
  agentId,
  active: true,
  source: 'run' as const,
  at: 1,
  ...(installation ? { installation } : {}),
});

describe('agentRows', () => {
  it('lists the default to a home installation, then bound, then seen agents, each once', () => {
    const tenant = { teamId: 'T1', home: true, key: undefined };
    const rows = agentRows(tenant, 'main', [{ channel: 'C1', agentId: 'pay' }], [seen('pay'), seen('old')]);
    expect(rows.map((row) => [row.agentId, row.isDefault, row.channels])).toEqual([
      ['main', true, []],
      ['pay', false, ['C1']],
      ['old', false, []],
    ]);
    expect(rows[1]?.seen).toEqual(seen('pay'));
  });

  it('keeps the default and other installations’ sightings from an installation that is not home', () => {
    const tenant = { teamId: 'T2', home: false, key: 'T2' };
    const rows = agentRows(tenant, 'main', [], [seen('theirs', 'T3'), seen('ours', 'T2')]);
    expect(rows.map((row) => row.agentId)).toEqual(['ours']);
  });
});
