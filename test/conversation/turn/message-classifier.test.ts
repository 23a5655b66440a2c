import { describe, expect, it } from 'vitest';
import {
  type Classification,
  type ClassifierContext,
  classifyMessage,
  type SlackMessageLike,
} from '../../../src/conversation/turn/message-classifier.js';

const context: ClassifierContext = {
  botUserId: 'UBOT',
  botId: 'BBOT',
  allowedChannelIds: [],
};

const base: SlackMessageLike = {
  type: 'message',
  channel: 'C1',
  channel_type: 'channel',
  user: 'U1',
  team: 'T1',
  ts: '100.1',
  text: '<@UBOT> why?',
};
const plain = { text: 'why?' };
const inThread = { thread_ts: '99.9' };
const dm = { channel: 'D1', channel_type: 'im' };
const external = { user_team: 'T2', team: 'T2' };
const groupDm = { channel: 'G1', channel_type: 'mpim' };

const turn = (threadTs: string, mentioned: boolean, directMessage = false): Classification => ({
  kind: 'turn',
  threadTs,
  mentioned,
  directMessage,
  userId: 'U1',
});
const maybe = (threadTs: string): Classification => ({ kind: 'maybe-follow-up', threadTs, userId: 'U1' });
const ignore = (reason: string, tellUser = false): Classification =>
  ({ kind: 'ignore', reason, tellUser }) as Classification;

describe('classifyMessage', () => {
  it.each<[string, Partial<SlackMessageLike>, Partial<ClassifierContext>, Classification]>([
    // People's messages that start turns
    ['mention at the top level', {}, {}, turn('100.1', true)],
    ['mention in a thread', inThread, {}, turn('99.9', true)],
    ['labelled mention', { text: 'hi <@UBOT|agent>' }, {}, turn('100.1', true)],
    [
      'app_mention event',
      { type: 'app_mention', channel_type: undefined, text: 'hi' },
      {},
      turn('100.1', true),
    ],
    ['thread_broadcast with a mention', { subtype: 'thread_broadcast', ...inThread }, {}, turn('99.9', true)],
    ['file_share with a mention', { subtype: 'file_share' }, {}, turn('100.1', true)],
    ['DM at the top level', { ...dm, ...plain }, {}, turn('100.1', false, true)],
    ['DM in a thread', { ...dm, ...plain, ...inThread }, {}, turn('99.9', false, true)],
    [
      'DM without channel_type',
      { channel: 'D1', channel_type: undefined, ...plain },
      {},
      turn('100.1', false, true),
    ],
    ['file_share in a DM', { ...dm, ...plain, subtype: 'file_share' }, {}, turn('100.1', false, true)],
    ['no team on the event', { team: undefined }, {}, turn('100.1', true)],
    // Unmentioned thread replies
    [
      'thread reply without a mention',
      { ...plain, ...inThread },
      {},
      { kind: 'maybe-follow-up', threadTs: '99.9', userId: 'U1' },
    ],
    [
      'thread_broadcast without a mention',
      { ...plain, ...inThread, subtype: 'thread_broadcast' },
      {},
      { kind: 'maybe-follow-up', threadTs: '99.9', userId: 'U1' },
    ],
    ['top level without a mention', plain, {}, ignore('not-addressed')],
    ['mention of someone else', { text: '<@UOTHER> why?' }, {}, ignore('not-addressed')],
    [
      'group DM without a mention',
      { channel: 'G1', channel_type: 'mpim', ...plain },
      {},
      ignore('not-addressed'),
    ],
    // Bots, this one included
    ['any bot', { bot_id: 'B2' }, {}, ignore('bot')],
    ['bot_message subtype', { subtype: 'bot_message', user: undefined }, {}, ignore('bot')],
    ['this bot by user id', { user: 'UBOT' }, {}, ignore('bot')],
    ['this bot by bot id', { bot_id: 'BBOT', user: 'UBOT' }, {}, ignore('bot')],
    ['bot thread_broadcast', { bot_id: 'B2', subtype: 'thread_broadcast', ...inThread }, {}, ignore('bot')],
    ['bot file_share in a DM', { bot_id: 'B2', subtype: 'file_share', ...dm }, {}, ignore('bot')],
    // Edits, deletions and system subtypes
    ['edit', { subtype: 'message_changed' }, {}, ignore('subtype')],
    ['edit in a DM', { subtype: 'message_changed', ...dm }, {}, ignore('subtype')],
    ['deletion', { subtype: 'message_deleted', user: undefined }, {}, ignore('subtype')],
    ['join', { subtype: 'channel_join' }, {}, ignore('subtype')],
    ['topic change', { subtype: 'channel_topic' }, {}, ignore('subtype')],
    ['reply notice', { subtype: 'message_replied', ...inThread }, {}, ignore('subtype')],
    ['/me message with a mention', { subtype: 'me_message' }, {}, turn('100.1', true)],
    ['/me reply in a thread', { subtype: 'me_message', ...plain, ...inThread }, {}, maybe('99.9')],
    ['no user', { user: undefined }, {}, ignore('no-user')],
    // Who is inside is not the classifier's question (who-is-inside.ts): an outsider's message is classified alike
    ['external user mentioning', external, {}, turn('100.1', true)],
    ['external thread reply without a mention', { ...external, ...plain, ...inThread }, {}, maybe('99.9')],
    ['external bot', { ...external, bot_id: 'B9' }, {}, ignore('bot')],
    // Group DMs are like channels: a mention starts a thread
    ['mention in a group DM', groupDm, {}, turn('100.1', true)],
    ['group DM chatter', { ...groupDm, ...plain }, {}, ignore('not-addressed')],
    // Channel allowlist
    ['allowed channel', {}, { allowedChannelIds: ['C1'] }, turn('100.1', true)],
    ['mention outside the allowlist', {}, { allowedChannelIds: ['C2'] }, ignore('channel-not-allowed', true)],
    [
      'thread reply outside the allowlist',
      { ...plain, ...inThread },
      { allowedChannelIds: ['C2'] },
      ignore('channel-not-allowed'),
    ],
    ['chatter outside the allowlist', plain, { allowedChannelIds: ['C2'] }, ignore('not-addressed')],
    ['DM with an allowlist', { ...dm, ...plain }, { allowedChannelIds: ['C2'] }, turn('100.1', false, true)],
    [
      'external mention outside the allowlist',
      external,
      { allowedChannelIds: ['C2'] },
      ignore('channel-not-allowed', true),
    ],
  ])('%s', (_name, overrides, contextOverrides, expected) => {
    expect(classifyMessage({ ...base, ...overrides }, { ...context, ...contextOverrides })).toEqual(expected);
  });

  it('classifies both deliveries of one channel mention the same way', () => {
    const asMessage = classifyMessage(base, context);
    const asMention = classifyMessage({ ...base, type: 'app_mention', channel_type: undefined }, context);
    expect(asMention).toEqual(asMessage);
  });
});
