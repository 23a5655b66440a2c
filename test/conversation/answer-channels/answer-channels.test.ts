import { describe, expect, it } from 'vitest';
import {
  type AnswerChannel,
  type AnswerChannelStore,
  createAnswerChannels,
  isAnswerAllCandidate,
} from '../../../src/conversation/answer-channels/answer-channels.js';
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

describe('answer channels', () => {
  it('switches on and off, keeping who turned it on first, and says what it was before', async () => {
    let now = 1000;
    const channels = createAnswerChannels({ store: memoryStore(), now: () => now });
    expect(await channels.set('C1', true, 'UADMIN')).toEqual({ wasOn: false });
    now = 2000;
    expect(await channels.set('C1', true, 'UOWNER')).toEqual({ wasOn: true });
    expect(await channels.settingOf('C1')).toEqual({ by: 'UADMIN', at: 1000 });
    expect(await channels.set('C1', false, 'UOWNER')).toEqual({ wasOn: true });
    expect(await channels.set('C1', false, 'UOWNER')).toEqual({ wasOn: false });
    expect(await channels.settingOf('C1')).toBeUndefined();
  });

  it("lists only the installation's own answer channels", async () => {
    let installation: string | undefined = 'T1';
    const channels = createAnswerChannels({
      store: memoryStore(),
      now: () => 0,
      installation: () => installation,
    });
    await channels.set('C1', true, 'U1');
    installation = 'T2';
    await channels.set('C2', true, 'U2');
    expect(await channels.list()).toEqual(['C2']);
    installation = 'T1';
    expect(await channels.list()).toEqual(['C1']);
  });
});
