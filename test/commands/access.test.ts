import { describe, expect, it } from 'vitest';
import { createAdminCheck, type SlackUserRoles } from '../../src/commands/access.js';

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
  UADMIN: { isAdmin: true, isOwner: false },
  UOWNER: { isAdmin: false, isOwner: true },
  UMEMBER: { isAdmin: false, isOwner: false },
};

describe('createAdminCheck', () => {
  it.each([
    ['a listed id, without asking Slack', 'ULISTED', true, 0],
    ['a workspace admin', 'UADMIN', true, 1],
    ['a workspace owner', 'UOWNER', true, 1],
    ['a member', 'UMEMBER', false, 1],
    ['someone Slack does not know', 'UNOBODY', false, 1],
  ])('%s', async (_name, userId, expected, lookups) => {
    const slack = directory(USERS);
    const check = createAdminCheck({ adminUserIds: ['ULISTED'], lookupUser: slack.lookupUser });
    expect(await check.isAdmin(userId)).toBe(expected);
    expect(slack.calls).toHaveLength(lookups);
  });

  it('refuses when Slack cannot answer, reports it, and asks again next time', async () => {
    const slack = directory(USERS);
    const errors: string[] = [];
    const check = createAdminCheck({
      adminUserIds: [],
      lookupUser: slack.lookupUser,
      onLookupError: (userId) => errors.push(userId),
    });
    slack.fail(true);
    expect(await check.isAdmin('UADMIN')).toBe(false);
    expect(errors).toEqual(['UADMIN']);
    slack.fail(false);
    expect(await check.isAdmin('UADMIN')).toBe(true);
  });

  it('survives a lookup that throws synchronously', async () => {
    const check = createAdminCheck({
      adminUserIds: [],
      lookupUser: (() => {
        throw new Error('boom');
      }) as never,
    });
    expect(await check.isAdmin('UX')).toBe(false);
    expect(await check.isAdmin('UX')).toBe(false);
  });
});
