import { describe, expect, it } from 'vitest';
import { createAdminCheck, isInsideAdmin, type SlackUserRoles } from '../../src/commands/access.js';
import type { AppOrganisation } from '../../src/conversation/access/who-is-inside.js';

const APP: AppOrganisation = { teamId: 'TAPP' };
const GRID: AppOrganisation = { teamId: 'TAPP', enterpriseId: 'EORG' };

const roles = (extra: Partial<SlackUserRoles> = {}): SlackUserRoles => ({
  teamId: 'TAPP',
  isAdmin: false,
  isOwner: false,
  isGuest: false,
  isStranger: false,
  ...extra,
});

/** A users.info stand-in that counts its calls. */
function directory(users: Record<string, SlackUserRoles>) {
  const calls: string[] = [];
  let failing = false;
  return {
    calls,
    fail(value: boolean) {
      failing = value;
    },
    lookupUser: async (id: string) => {
      calls.push(id);
      if (failing) throw new Error('slack is down');
      return users[id];
    },
  };
}

const USERS = {
  UADMIN: roles({ isAdmin: true }),
  UOWNER: roles({ isOwner: true }),
  UMEMBER: roles(),
  UGUESTADMIN: roles({ isAdmin: true, isGuest: true }),
  UOTHERADMIN: roles({ teamId: 'TOTHER', isAdmin: true, isStranger: true }),
};

const HOME = { home: true };

describe('createAdminCheck', () => {
  it('counts ADMIN_USER_IDS only in a home installation; a workspace admin is admin of their own', async () => {
    const slack = directory(USERS);
    const check = createAdminCheck({ adminUserIds: ['ULISTED'], app: APP, lookupUser: slack.lookupUser });
    expect(await check.isAdmin('ULISTED', { home: false })).toBe(false);
    expect(await check.isAdmin('UADMIN', { home: false })).toBe(true);
  });

  it.each([
    ['a listed id, without asking Slack', 'ULISTED', true, 0],
    ['a workspace admin', 'UADMIN', true, 1],
    ['a workspace owner', 'UOWNER', true, 1],
    ['a member', 'UMEMBER', false, 1],
    ['a guest who carries the admin flag', 'UGUESTADMIN', false, 1],
    ['another organisation’s admin (Slack Connect)', 'UOTHERADMIN', false, 1],
    ['someone Slack does not know', 'UNOBODY', false, 1],
  ])('%s', async (_name, userId, expected, lookups) => {
    const slack = directory(USERS);
    const check = createAdminCheck({ adminUserIds: ['ULISTED'], app: APP, lookupUser: slack.lookupUser });
    expect(await check.isAdmin(userId, HOME)).toBe(expected);
    expect(slack.calls).toHaveLength(lookups);
  });

  it.each<[string, AppOrganisation, SlackUserRoles | undefined, boolean]>([
    ['an admin of the app workspace', APP, roles({ isAdmin: true }), true],
    [
      'an owner of a Grid sibling workspace',
      GRID,
      roles({ teamId: 'TSIB', enterpriseId: 'EORG', isOwner: true }),
      true,
    ],
    ['an admin of a workspace outside the org', APP, roles({ teamId: 'TOTHER', isAdmin: true }), false],
    ['an admin of another Grid org', GRID, roles({ teamId: 'TX', enterpriseId: 'EX', isAdmin: true }), false],
    ['a single-channel guest with the admin flag', APP, roles({ isAdmin: true, isGuest: true }), false],
    ['a stranger whose team looks like ours', APP, roles({ isOwner: true, isStranger: true }), false],
    ['a member', APP, roles(), false],
    ['nobody', APP, undefined, false],
  ])('Slack roles count only inside: %s', (_name, app, person, expected) => {
    expect(isInsideAdmin(app, person)).toBe(expected);
  });

  it('refuses when Slack cannot answer, reports it, and asks again next time', async () => {
    const slack = directory(USERS);
    const errors: string[] = [];
    const check = createAdminCheck({
      adminUserIds: [],
      app: APP,
      lookupUser: slack.lookupUser,
      onLookupError: (userId) => errors.push(userId),
    });
    slack.fail(true);
    expect(await check.isAdmin('UADMIN', HOME)).toBe(false);
    expect(errors).toEqual(['UADMIN']);
    slack.fail(false);
    expect(await check.isAdmin('UADMIN', HOME)).toBe(true);
  });

  it('survives a lookup that throws synchronously', async () => {
    const check = createAdminCheck({
      adminUserIds: [],
      app: APP,
      lookupUser: (() => {
        throw new Error('boom');
      }) as never,
    });
    expect(await check.isAdmin('UX', HOME)).toBe(false);
    expect(await check.isAdmin('UX', HOME)).toBe(false);
  });
});
