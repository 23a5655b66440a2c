import { describe, expect, it } from 'vitest';
import { createUserDirectory, type SlackPerson, toSlackPerson } from '../../src/slack/user-directory.js';

const person = (id: string, extra: Partial<SlackPerson> = {}): SlackPerson => ({
  ...toSlackPerson(id, { id, team_id: 'T1' }),
  ...extra,
});

/** A users.info stand-in that counts its calls and can fail or hold its answer. */
function slack(users: Record<string, SlackPerson>) {
  const calls: string[] = [];
  let failing = false;
  let hold: Promise<void> | undefined;
  return {
    calls,
    fail(value: boolean) {
      failing = value;
    },
    holdUntil(gate: Promise<void>) {
      hold = gate;
    },
    fetch: async (id: string) => {
      calls.push(id);
      if (hold) await hold;
      if (failing) throw new Error('slack is down');
      return users[id];
    },
  };
}

describe('createUserDirectory', () => {
  it('caches answers (also "unknown") for the TTL, then asks again', async () => {
    const api = slack({ UA: person('UA') });
    let now = 0;
    const directory = createUserDirectory({ fetch: api.fetch, ttlMs: 1000, now: () => now });
    expect((await directory.lookup('UA'))?.teamId).toBe('T1');
    expect(await directory.lookup('UNOBODY')).toBeUndefined();
    now = 999;
    await directory.lookup('UA');
    await directory.lookup('UNOBODY');
    expect(api.calls).toEqual(['UA', 'UNOBODY']);
    now = 1000;
    await directory.lookup('UA');
    expect(api.calls).toEqual(['UA', 'UNOBODY', 'UA']);
  });

  it('keeps each installation’s view of a person apart (OAuth): a stranger in one, at home in the other', async () => {
    let installation = 'TA';
    const calls: string[] = [];
    const directory = createUserDirectory({
      fetch: async (id) => {
        calls.push(`${installation}:${id}`);
        return person(id, { isStranger: installation === 'TA' });
      },
      partition: () => installation,
    });
    expect((await directory.lookup('UX'))?.isStranger).toBe(true);
    installation = 'TB';
    expect((await directory.lookup('UX'))?.isStranger).toBe(false);
    installation = 'TA';
    expect((await directory.lookup('UX'))?.isStranger).toBe(true);
    expect(calls).toEqual(['TA:UX', 'TB:UX']);
  });

  it('shares one call between concurrent look-ups of one user', async () => {
    const api = slack({ UA: person('UA') });
    let open: () => void = () => undefined;
    api.holdUntil(new Promise<void>((resolve) => (open = resolve)));
    const directory = createUserDirectory({ fetch: api.fetch });
    const both = Promise.all([directory.lookup('UA'), directory.lookup('UA')]);
    open();
    expect((await both).map((found) => found?.id)).toEqual(['UA', 'UA']);
    expect(api.calls).toEqual(['UA']);
  });

  it('rejects when Slack cannot answer and does not cache the failure', async () => {
    const api = slack({ UA: person('UA') });
    const directory = createUserDirectory({ fetch: api.fetch });
    api.fail(true);
    await expect(directory.lookup('UA')).rejects.toThrow('slack is down');
    api.fail(false);
    expect((await directory.lookup('UA'))?.id).toBe('UA');
    expect(api.calls).toEqual(['UA', 'UA']);
  });

  it('survives a fetch that throws synchronously, and asks again afterwards', async () => {
    let calls = 0;
    const directory = createUserDirectory({
      fetch: (() => {
        calls += 1;
        throw new Error('boom');
      }) as never,
    });
    await expect(directory.lookup('UX')).rejects.toThrow('boom');
    await expect(directory.lookup('UX')).rejects.toThrow('boom');
    expect(calls).toBe(2);
  });

  it('stays bounded, dropping the least recently used first', async () => {
    const api = slack({ UA: person('UA'), UB: person('UB'), UC: person('UC') });
    const directory = createUserDirectory({ fetch: api.fetch, maxEntries: 2 });
    await directory.lookup('UA');
    await directory.lookup('UB');
    await directory.lookup('UA'); // UA is now the most recently used
    await directory.lookup('UC'); // drops UB
    await directory.lookup('UA');
    expect(api.calls).toEqual(['UA', 'UB', 'UC']);
    await directory.lookup('UB');
    expect(api.calls).toEqual(['UA', 'UB', 'UC', 'UB']);
  });
});

describe('toSlackPerson', () => {
  it("reads users.info's fields, Grid membership included", () => {
    expect(
      toSlackPerson('W1', {
        id: 'W1',
        team_id: 'T2',
        enterprise_user: { enterprise_id: 'E1' },
        is_admin: true,
        is_owner: false,
        is_bot: false,
        deleted: false,
        tz: 'Europe/Berlin',
        real_name: 'Grace Grid',
        profile: { display_name: 'grace', real_name: 'Grace Grid' },
      }),
    ).toEqual({
      id: 'W1',
      teamId: 'T2',
      enterpriseId: 'E1',
      isAdmin: true,
      isOwner: false,
      isGuest: false,
      isStranger: false,
      isBot: false,
      deleted: false,
      tz: 'Europe/Berlin',
      displayName: 'grace',
      realName: 'Grace Grid',
    });
  });

  it.each([
    ['a multi-channel guest', { is_restricted: true }, { isGuest: true, isStranger: false }],
    [
      'a single-channel guest (Slack sets both flags)',
      { is_restricted: true, is_ultra_restricted: true },
      { isGuest: true, isStranger: false },
    ],
    [
      'a single-channel guest, one flag only',
      { is_ultra_restricted: true },
      { isGuest: true, isStranger: false },
    ],
    ['another organisation’s person', { is_stranger: true }, { isGuest: false, isStranger: true }],
    ['a member', { is_restricted: false }, { isGuest: false, isStranger: false }],
  ])('reads %s', (_name, flags, expected) => {
    expect(toSlackPerson('U1', { team_id: 'T1', ...flags })).toMatchObject(expected);
  });

  it('leaves out what Slack leaves empty', () => {
    const found = toSlackPerson('U1', { profile: { display_name: '' } });
    expect(found).toMatchObject({
      id: 'U1',
      teamId: undefined,
      enterpriseId: undefined,
      displayName: undefined,
    });
  });
});
