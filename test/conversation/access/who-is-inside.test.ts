import { describe, expect, it } from 'vitest';
import {
  type AppOrganisation,
  type AudienceRules,
  createInsideCheck,
  type InsideVerdict,
  judgeByDirectory,
  outside,
  type PersonOrganisation,
  type PersonRef,
  senderWorkspace,
} from '../../../src/conversation/access/who-is-inside.js';
import { silentLogger } from '../../../src/runtime/logger.js';

const PLAIN: AppOrganisation = { teamId: 'TAPP' };
const GRID: AppOrganisation = { teamId: 'TAPP', enterpriseId: 'EORG' };

const member = (teamId: string, extra: Partial<PersonOrganisation> = {}): PersonOrganisation => ({
  teamId,
  isGuest: false,
  isStranger: false,
  ...extra,
});

/** users.info by user id. */
const DIRECTORY: Record<string, PersonOrganisation> = {
  UCOLLEAGUE: member('TAPP', { enterpriseId: 'EORG' }),
  WSIBLING: member('TSIBLING', { enterpriseId: 'EORG' }),
  UOUTSIDER: member('TOTHER'),
  WOTHERGRID: member('TOTHERGRID', { enterpriseId: 'EOTHER' }),
  UGUEST: member('TAPP', { isGuest: true }),
  WSIBLINGGUEST: member('TSIBLING', { enterpriseId: 'EORG', isGuest: true }),
  UOTHERGUEST: member('TOTHER', { isGuest: true }),
  USTRANGER: member('TOTHER', { isStranger: true }),
};

function check(
  app: AppOrganisation,
  options: { allowExternalUsers?: boolean; allowGuests?: boolean; failing?: boolean } = {},
) {
  const lookups: string[] = [];
  const inside = createInsideCheck({
    app,
    allowExternalUsers: options.allowExternalUsers ?? false,
    allowGuests: options.allowGuests ?? false,
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
const OUT: InsideVerdict = { inside: false, reason: 'other-organisation', refusal: 'external-user' };
const GUEST: InsideVerdict = { inside: false, reason: 'guest', refusal: 'guest' };
const UNKNOWN: InsideVerdict = { inside: false, reason: 'unknown-user', refusal: 'external-user' };

describe('who is inside: the judgement once the directory answered', () => {
  const NO_GUESTS: AudienceRules = { allowGuests: false };
  const GUESTS: AudienceRules = { allowGuests: true };
  it.each<[string, AppOrganisation, AudienceRules, PersonOrganisation | undefined, boolean, InsideVerdict]>([
    ['a member of the app workspace', PLAIN, NO_GUESTS, member('TAPP'), false, IN],
    ['a multi-channel guest', PLAIN, NO_GUESTS, member('TAPP', { isGuest: true }), false, GUEST],
    ['a guest, the payload naming the app workspace', PLAIN, NO_GUESTS, DIRECTORY.UGUEST, true, GUEST],
    ['a guest with ALLOW_GUESTS', PLAIN, GUESTS, DIRECTORY.UGUEST, false, IN],
    ['another organisation’s guest with ALLOW_GUESTS', PLAIN, GUESTS, DIRECTORY.UOTHERGUEST, false, OUT],
    ['another organisation’s guest without', PLAIN, NO_GUESTS, DIRECTORY.UOTHERGUEST, false, OUT],
    ['a Grid sibling’s guest', GRID, NO_GUESTS, DIRECTORY.WSIBLINGGUEST, false, GUEST],
    ['a Grid sibling’s guest with ALLOW_GUESTS', GRID, GUESTS, DIRECTORY.WSIBLINGGUEST, false, IN],
    ['a Grid sibling, the payload naming the app workspace', GRID, NO_GUESTS, DIRECTORY.WSIBLING, true, IN],
    ['a Slack Connect stranger', PLAIN, GUESTS, DIRECTORY.USTRANGER, false, OUT],
    ['a stranger, though the payload names the app workspace', PLAIN, GUESTS, DIRECTORY.USTRANGER, true, OUT],
    [
      'a stranger who claims the app team in users.info',
      PLAIN,
      GUESTS,
      member('TAPP', { isStranger: true }),
      false,
      OUT,
    ],
    [
      'someone Slack does not know, the payload naming the app workspace',
      PLAIN,
      GUESTS,
      undefined,
      true,
      UNKNOWN,
    ],
  ])('%s', (_name, app, rules, person, workspaceIsApps, expected) => {
    expect(judgeByDirectory(app, rules, person, workspaceIsApps)).toEqual(expected);
  });

  it('tells lookup failures apart from outsiders', () => {
    expect(outside('lookup-failed')).toEqual({
      inside: false,
      reason: 'lookup-failed',
      refusal: 'identity-unchecked',
    });
  });
});

describe('who is inside: the check every entry path calls', () => {
  it.each<[string, AppOrganisation, PersonRef, InsideVerdict, number]>([
    [
      'the app workspace, named by the payload: looked up for the guest flag',
      PLAIN,
      { userId: 'UCOLLEAGUE', workspaceId: 'TAPP' },
      IN,
      1,
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
    ['someone Slack does not know', GRID, { userId: 'UGHOST' }, UNKNOWN, 1],
    [
      'someone Slack does not know, though the payload names the app workspace',
      PLAIN,
      { userId: 'UGHOST', workspaceId: 'TAPP' },
      UNKNOWN,
      1,
    ],
    [
      'a guest of the app workspace, named by the payload',
      PLAIN,
      { userId: 'UGUEST', workspaceId: 'TAPP' },
      GUEST,
      1,
    ],
    ['a guest, no workspace named (a reaction)', PLAIN, { userId: 'UGUEST' }, GUEST, 1],
    [
      'Grid: a guest of a sibling workspace',
      GRID,
      { userId: 'WSIBLINGGUEST', workspaceId: 'TSIBLING' },
      GUEST,
      1,
    ],
  ])('%s', async (_name, app, person, expected, lookups) => {
    const { inside, lookups: made } = check(app);
    expect(await inside.check(person)).toEqual(expected);
    expect(made).toHaveLength(lookups);
  });

  it.each<[string, PersonRef, InsideVerdict, number]>([
    ['a guest named by the payload: no look-up', { userId: 'UGUEST', workspaceId: 'TAPP' }, IN, 0],
    ['a guest, no workspace named: looked up', { userId: 'UGUEST' }, IN, 1],
    ['another organisation’s guest', { userId: 'UOTHERGUEST' }, OUT, 1],
    [
      'another organisation’s guest, named by the payload',
      { userId: 'UOTHERGUEST', workspaceId: 'TOTHER' },
      OUT,
      0,
    ],
  ])('with ALLOW_GUESTS: %s', async (_name, person, expected, lookups) => {
    const { inside, lookups: made } = check(PLAIN, { allowGuests: true });
    expect(await inside.check(person)).toEqual(expected);
    expect(made).toHaveLength(lookups);
  });

  it.each<[string, AppOrganisation, PersonRef]>([
    ['a Grid sibling', GRID, { userId: 'WSIBLING', workspaceId: 'TSIBLING' }],
    ['a member named by the payload (is it a guest?)', PLAIN, { userId: 'UCOLLEAGUE', workspaceId: 'TAPP' }],
  ])('fails closed when users.info cannot answer: %s', async (_name, app, person) => {
    const { inside } = check(app, { failing: true });
    expect(await inside.check(person)).toEqual({
      inside: false,
      reason: 'lookup-failed',
      refusal: 'identity-unchecked',
    });
  });

  it('lets everyone in with ALLOW_EXTERNAL_USERS, guests too, without looking anyone up', async () => {
    const { inside, lookups } = check(PLAIN, { allowExternalUsers: true, failing: true });
    expect(await inside.check({ userId: 'UOUTSIDER', workspaceId: 'TOTHER' })).toEqual(IN);
    expect(await inside.check({ userId: 'UOUTSIDER' })).toEqual(IN);
    expect(await inside.check({ userId: 'UGUEST', workspaceId: 'TAPP' })).toEqual(IN);
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
