import { describe, expect, it } from 'vitest';
import { createAnswerPlacement, type OutsiderPolicy } from '../../../src/conversation/access/answer-place.js';
import {
  type Audience,
  type ConversationFacts,
  createConversationAudience,
} from '../../../src/conversation/access/audience.js';
import type { InsideVerdict } from '../../../src/conversation/access/who-is-inside.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { sharedOutside } from '../../../src/slack/conversation-audience.js';
import { createMemoryStore } from '../../../src/store/index.js';

/** The inside check as the audience sees it: U* inside, G* guests, X* another organisation, F* unknown. */
async function check({ userId }: { userId: string }): Promise<InsideVerdict> {
  if (userId.startsWith('U')) return { inside: true };
  if (userId.startsWith('G')) return { inside: false, reason: 'guest', refusal: 'guest' };
  if (userId.startsWith('F'))
    return { inside: false, reason: 'lookup-failed', refusal: 'identity-unchecked' };
  return { inside: false, reason: 'other-organisation', refusal: 'external-user' };
}

function audienceOf(facts: ConversationFacts | Error) {
  const described: string[] = [];
  const store = createMemoryStore();
  const audience = createConversationAudience({
    source: {
      describe: async (channel) => {
        described.push(channel);
        if (facts instanceof Error) throw facts;
        return facts;
      },
    },
    cache: store,
    inside: { check },
    bot: { botUserId: 'BOT' },
    logger: silentLogger,
  });
  return { audience, described, store };
}

describe('the audience of a conversation', () => {
  const cases: Array<[string, ConversationFacts | Error, Audience]> = [
    [
      'members all inside',
      { isIm: false, externallyShared: false, members: ['U1', 'U2', 'BOT'] },
      { outsiders: false },
    ],
    ['Slack Connect', { isIm: false, externallyShared: true }, { outsiders: true, reason: 'shared' }],
    [
      'a guest member',
      { isIm: false, externallyShared: false, members: ['U1', 'G1'] },
      { outsiders: true, reason: 'guest' },
    ],
    [
      'another organisation',
      { isIm: false, externallyShared: false, members: ['X1', 'U1'] },
      { outsiders: true, reason: 'outsider' },
    ],
    [
      'a member nobody can judge',
      { isIm: false, externallyShared: false, members: ['F1'] },
      { outsiders: true, reason: 'unknown' },
    ],
    ['too big to list, not shared', { isIm: false, externallyShared: false }, { outsiders: false }],
    ['a DM', { isIm: true, externallyShared: false }, { outsiders: false }],
    ['Slack failing to answer', new Error('fatal_error'), { outsiders: true, reason: 'unknown' }],
  ];
  it.each(cases)('%s', async (_name, facts, expected) => {
    const { audience } = audienceOf(facts);
    expect(await audience.of('C1')).toEqual(expected);
  });

  it('keeps a verdict in the store until an event drops it, but never a failure', async () => {
    const { audience, described } = audienceOf({ isIm: false, externallyShared: true });
    await audience.of('C1');
    await audience.of('C1');
    expect(described).toEqual(['C1']);
    await audience.forget('C1');
    await audience.of('C1');
    expect(described).toEqual(['C1', 'C1']);

    const failing = audienceOf(new Error('down'));
    await failing.audience.of('C1');
    await failing.audience.of('C1');
    expect(failing.described).toEqual(['C1', 'C1']);
  });

  it('keeps each installation’s verdict apart: one channel shared by two organisations', async () => {
    // Seen from TA the channel has TB's people in it, and from TB TA's: each asks Slack for itself.
    let installation: string | undefined = 'TA';
    const described: string[] = [];
    const audience = createConversationAudience({
      source: {
        describe: async () => {
          described.push(installation ?? 'none');
          return { isIm: false, externallyShared: false, members: installation === 'TA' ? ['U1'] : ['X1'] };
        },
      },
      cache: createMemoryStore(),
      partition: () => installation,
      inside: { check },
      bot: { botUserId: 'BOT' },
      logger: silentLogger,
    });
    expect(await audience.of('C1')).toEqual({ outsiders: false });
    installation = 'TB';
    expect(await audience.of('C1')).toEqual({ outsiders: true, reason: 'outsider' });
    installation = 'TA';
    expect(await audience.of('C1')).toEqual({ outsiders: false });
    expect(described).toEqual(['TA', 'TB']);
    // An event in TB drops TB's verdict only.
    installation = 'TB';
    await audience.forget('C1');
    installation = 'TA';
    await audience.of('C1');
    installation = 'TB';
    await audience.of('C1');
    expect(described).toEqual(['TA', 'TB', 'TB']);
  });

  it('asks nothing about a DM channel with the bot', async () => {
    const { audience, described } = audienceOf(new Error('must not be asked'));
    expect(await audience.of('D0123')).toEqual({ outsiders: false });
    expect(described).toEqual([]);
  });
});

describe('where the answer goes', () => {
  const outsiders: Audience = { outsiders: true, reason: 'shared' };
  const cases: Array<[OutsiderPolicy, Audience, string]> = [
    ['dm', { outsiders: false }, 'here'],
    ['dm', outsiders, 'private'],
    ['refuse', outsiders, 'refused'],
    ['refuse', { outsiders: false }, 'here'],
    ['thread', outsiders, 'here'],
  ];
  it.each(cases)('OUTSIDER_AUDIENCE=%s, %o → %s', async (policy, audience, expected) => {
    let asked = 0;
    const placement = createAnswerPlacement({
      audience: {
        of: async () => {
          asked += 1;
          return audience;
        },
      },
      policy,
      replies: { openThread: async () => ({ channel: 'D1', ts: '1.1' }), leaveNote: async () => {} },
      logger: silentLogger,
      metrics: { outsiderReadable: () => {} },
    });
    expect((await placement.decide('C1')).kind).toBe(expected);
    // `thread` needs no audience: no Slack call for it.
    expect(asked).toBe(policy === 'thread' ? 0 : 1);
  });

  it('moves to the DM even when the note cannot be posted, and not when the DM cannot be opened', async () => {
    const origin = { teamId: 'T1', channel: 'C1', threadTs: '1.0', sourceTs: '1.0' };
    const noteFails = createAnswerPlacement({
      audience: { of: async () => ({ outsiders: false }) },
      policy: 'dm',
      replies: {
        openThread: async () => ({ channel: 'D1', ts: '2.0' }),
        leaveNote: () => Promise.reject(new Error('x')),
      },
      logger: silentLogger,
      metrics: { outsiderReadable: () => {} },
    });
    expect(await noteFails.moveToPrivate(origin, 'U1', 'why?', 'shared')).toEqual({
      moved: true,
      where: { teamId: 'T1', channel: 'D1', threadTs: '2.0' },
    });
    const dmFails = createAnswerPlacement({
      audience: { of: async () => ({ outsiders: false }) },
      policy: 'dm',
      replies: { openThread: () => Promise.reject(new Error('x')), leaveNote: async () => {} },
      logger: silentLogger,
      metrics: { outsiderReadable: () => {} },
    });
    expect(await dmFails.moveToPrivate(origin, 'U1', 'why?', 'shared')).toEqual({ moved: false });
  });
});

describe("conversations.info's sharing flags", () => {
  const cases: Array<[Record<string, boolean>, boolean]> = [
    [{}, false],
    [{ is_ext_shared: true, is_shared: true }, true],
    [{ is_pending_ext_shared: true }, true],
    [{ is_shared: true, is_org_shared: true }, false],
    [{ is_shared: true }, true],
  ];
  it.each(cases)('%o → shared outside: %s', (flags, expected) => {
    expect(sharedOutside(flags)).toBe(expected);
  });
});
