import { describe, expect, it } from 'vitest';
import {
  type AnswerChannel,
  type AnswerChannelStore,
  createAnswerChannels,
  isAnswerAllCandidate,
} from '../../../src/conversation/answer-channels/answer-channels.js';
import type { Tenant } from '../../../src/conversation/tenancy.js';
import { classifyMessage, type SlackMessageLike } from '../../../src/conversation/turn/message-classifier.js';

const BOT = 'UBOT';
const verdictOf = (event: Partial<SlackMessageLike>) =>
  classifyMessage(
    { type: 'message', channel: 'C1', ts: '1.0', user: 'UALICE', text: 'why is it slow?', ...event },
    { botUserId: BOT, botId: 'B0BOT', allowedChannelIds: [] },
  );

describe('isAnswerAllCandidate', () => {
  it.each([
    ['a plain top-level message', {}, true],
    ['a file shared at top level', { subtype: 'file_share' }, true],
    ['a mention (the mention path takes it)', { text: `<@${BOT}> hi` }, false],
    ['a reply in a thread', { thread_ts: '0.5' }, false],
    ['a DM', { channel: 'D1', channel_type: 'im' }, false],
    ['another bot', { bot_id: 'B0OTHER' }, false],
    ['an edit', { subtype: 'message_changed' }, false],
    ['a join', { subtype: 'channel_join' }, false],
    ['no user', { user: undefined }, false],
  ] as const)('%s → %s', (_, event, expected) => {
    const channel = 'channel' in event ? event.channel : 'C1';
    expect(isAnswerAllCandidate(verdictOf(event), channel, [])).toBe(expected);
  });

  it('keeps to the channel allowlist', () => {
    expect(isAnswerAllCandidate(verdictOf({}), 'C1', ['C2'])).toBe(false);
    expect(isAnswerAllCandidate(verdictOf({}), 'C1', ['C1'])).toBe(true);
  });
});

function memoryStore(): AnswerChannelStore {
  const records = new Map<string, AnswerChannel>();
  return {
    getAnswerChannel: async (channel) => records.get(channel),
    saveAnswerChannel: async (channel, setting) => void records.set(channel, setting),
    deleteAnswerChannel: async (channel) => void records.delete(channel),
    listAnswerChannels: async () => [...records.keys()].sort(),
  };
}

const ONE: Tenant = { teamId: 'T0', home: true, key: undefined };
const tenantOf = (teamId: string): Tenant => ({ teamId, home: false, key: teamId });

describe('answer channels', () => {
  it('switches on and off, keeping who turned it on first, and says what it was before', async () => {
    let now = 1000;
    const channels = createAnswerChannels({ store: memoryStore(), now: () => now });
    expect(await channels.set(ONE, 'C1', true, 'UADMIN')).toEqual({ wasOn: false });
    now = 2000;
    expect(await channels.set(ONE, 'C1', true, 'UOWNER')).toEqual({ wasOn: true });
    expect(await channels.settingOf(ONE, 'C1')).toEqual({ by: 'UADMIN', at: 1000 });
    expect(await channels.set(ONE, 'C1', false, 'UOWNER')).toEqual({ wasOn: true });
    expect(await channels.set(ONE, 'C1', false, 'UOWNER')).toEqual({ wasOn: false });
    expect(await channels.settingOf(ONE, 'C1')).toBeUndefined();
  });

  it("keeps each installation's switch apart, even in one shared channel, and lists only its own", async () => {
    const channels = createAnswerChannels({ store: memoryStore(), now: () => 0 });
    const alpha = tenantOf('T1');
    const beta = tenantOf('T2');
    await channels.set(alpha, 'C1', true, 'U1');
    await channels.set(beta, 'C2', true, 'U2');
    await channels.set(beta, 'CSHARED', true, 'U2');
    expect(await channels.list(alpha)).toEqual(['C1']);
    expect(await channels.list(beta)).toEqual(['C2', 'CSHARED']);
    expect(await channels.settingOf(alpha, 'CSHARED')).toBeUndefined();
    // Alpha turning the shared channel off touches only its own (absent) switch.
    expect(await channels.set(alpha, 'CSHARED', false, 'U1')).toEqual({ wasOn: false });
    expect(await channels.settingOf(beta, 'CSHARED')).toEqual({ by: 'U2', at: 0 });
  });
});
