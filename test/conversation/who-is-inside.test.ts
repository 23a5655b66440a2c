import { describe, expect, it } from 'vitest';
import {
  type AppOrganisation,
  createInsideCheck,
  type InsideVerdict,
  type PersonOrganisation,
  type PersonRef,
  senderWorkspace,
} from '../../src/conversation/who-is-inside.js';
import { silentLogger } from '../../src/logging.js';

const PLAIN: AppOrganisation = { teamId: 'TAPP' };
const GRID: AppOrganisation = { teamId: 'TAPP', enterpriseId: 'EORG' };

/** users.info by user id. */
const DIRECTORY: Record<string, PersonOrganisation> = {
  UCOLLEAGUE: { teamId: 'TAPP', enterpriseId: 'EORG' },
  WSIBLING: { teamId: 'TSIBLING', enterpriseId: 'EORG' },
  UOUTSIDER: { teamId: 'TOTHER' },
  WOTHERGRID: { teamId: 'TOTHERGRID', enterpriseId: 'EOTHER' },
};

function check(app: AppOrganisation, options: { allowExternalUsers?: boolean; failing?: boolean } = {}) {
  const lookups: string[] = [];
  const inside = createInsideCheck({
    app,
    allowExternalUsers: options.allowExternalUsers ?? false,
    logger: silentLogger,
    lookup: async (userId) => {
      lookups.push(userId);
      if (options.failing) throw new Error('slack is down');
      return DIRECTORY[userId];
    },
  });
  return { inside, lookups };
}

const IN: InsideVerdict = { inside: true };
const OUT: InsideVerdict = { inside: false, reason: 'other-organisation' };

describe('who is inside', () => {
  it.each<[string, AppOrganisation, PersonRef, InsideVerdict, number]>([
    [
      'the app workspace, named by the payload: no look-up',
      PLAIN,
      { userId: 'UCOLLEAGUE', workspaceId: 'TAPP' },
      IN,
      0,
    ],
    [
      'another workspace outside Grid: no look-up',
      PLAIN,
      { userId: 'UOUTSIDER', workspaceId: 'TOTHER' },
      OUT,
      0,
    ],
    ['no workspace named: looked up, a colleague', PLAIN, { userId: 'UCOLLEAGUE' }, IN, 1],
    ['no workspace named: looked up, an outsider', PLAIN, { userId: 'UOUTSIDER' }, OUT, 1],
    [
      'Grid: a sibling workspace, same enterprise',
      GRID,
      { userId: 'WSIBLING', workspaceId: 'TSIBLING' },
      IN,
      1,
    ],
    ['Grid: another organisation', GRID, { userId: 'UOUTSIDER', workspaceId: 'TOTHER' }, OUT, 1],
    ['Grid: another Grid org', GRID, { userId: 'WOTHERGRID', workspaceId: 'TOTHERGRID' }, OUT, 1],
    ['Grid: no workspace named, a sibling', GRID, { userId: 'WSIBLING' }, IN, 1],
    ['outside Grid, an enterprise does not help', PLAIN, { userId: 'WSIBLING' }, OUT, 1],
    ['someone Slack does not know', GRID, { userId: 'UGHOST' }, { inside: false, reason: 'unknown-user' }, 1],
  ])('%s', async (_name, app, person, expected, lookups) => {
    const { inside, lookups: made } = check(app);
    expect(await inside.check(person)).toEqual(expected);
    expect(made).toHaveLength(lookups);
  });

  it('fails closed when users.info cannot answer', async () => {
    const { inside } = check(GRID, { failing: true });
    expect(await inside.check({ userId: 'WSIBLING', workspaceId: 'TSIBLING' })).toEqual({
      inside: false,
      reason: 'lookup-failed',
    });
  });

  it('lets everyone in with ALLOW_EXTERNAL_USERS, without looking anyone up', async () => {
    const { inside, lookups } = check(PLAIN, { allowExternalUsers: true, failing: true });
    expect(await inside.check({ userId: 'UOUTSIDER', workspaceId: 'TOTHER' })).toEqual(IN);
    expect(await inside.check({ userId: 'UOUTSIDER' })).toEqual(IN);
    expect(lookups).toHaveLength(0);
  });

  it.each([
    [{ user_team: 'T1', team: 'T2', source_team: 'T3' }, 'T1'],
    [{ team: 'T2', source_team: 'T3' }, 'T2'],
    [{ source_team: 'T3' }, 'T3'],
    [{ user_team: '', team: '' }, undefined],
    [{}, undefined],
  ])('the sender workspace of %j is %s', (event, expected) => {
    expect(senderWorkspace(event)).toBe(expected);
  });
});
