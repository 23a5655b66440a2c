import { describe, expect, it } from 'vitest';
import { type Tenant, tenantRecord } from '../../src/conversation/tenancy.js';

type Kept = { value: string; installation?: string };

const tenant = (teamId: string, many = true): Tenant => ({
  teamId,
  home: false,
  key: many ? teamId : undefined,
});

/** A store's reads, recorded: which names were asked for. */
function keptRecords(records: Record<string, Kept>) {
  const asked: string[] = [];
  const get = async (name: string) => {
    asked.push(name);
    return records[name];
  };
  return { asked, get };
}

describe('tenantRecord', () => {
  it('reads the record under the installation’s name first', async () => {
    const { get } = keptRecords({ 'T1:C1': { value: 'own' }, C1: { value: 'earlier', installation: 'T1' } });
    expect(await tenantRecord(tenant('T1'), 'C1', get)).toEqual({ value: 'own' });
  });

  it('counts a record kept before installations had names for the installation that made it alone', async () => {
    const { get } = keptRecords({ C1: { value: 'earlier', installation: 'T1' } });
    expect(await tenantRecord(tenant('T1'), 'C1', get)).toEqual({ value: 'earlier', installation: 'T1' });
    expect(await tenantRecord(tenant('T2'), 'C1', get)).toBeUndefined();
  });

  it('with one workspace, reads the name alone, once', async () => {
    const { asked, get } = keptRecords({ C1: { value: 'only' } });
    expect(await tenantRecord(tenant('T1', false), 'C1', get)).toEqual({ value: 'only' });
    expect(asked).toEqual(['C1']);
  });
});
