import { describe, expect, it } from 'vitest';
import {
  type Classification,
  type ClassifierContext,
  classifyMessage,
  type SlackMessageLike,
} from '../../src/conversation/message-classifier.js';

const context: ClassifierContext = {
  botUserId: 'UBOT',
  botId: 'BBOT',
  teamId: 'T1',
  allowedChannelIds: [],
  allowExternalUsers: false,
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

const turn = (threadTs: string, mentioned: boolean, directMessage = false): Classification => ({
  kind: 'turn',
  threadTs,
  mentioned,
  directMessage,
  userId: 'U1',
});
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
    ['/me message', { subtype: 'me_message' }, {}, ignore('subtype')],
    ['no user', { user: undefined }, {}, ignore('no-user')],
    // Slack Connect
    ['external user mentioning', external, {}, { kind: 'refuse-external', threadTs: '100.1', userId: 'U1' }],
    [
      'external user by team only',
      { team: 'T2' },
      {},
      { kind: 'refuse-external', threadTs: '100.1', userId: 'U1' },
    ],
    ['user_team wins over team', { user_team: 'T1', team: 'T2' }, {}, turn('100.1', true)],
    [
      'external user in a DM',
      { ...external, ...dm, ...plain },
      {},
      { kind: 'refuse-external', threadTs: '100.1', userId: 'U1' },
    ],
    [
      'external file_share mention in a thread',
      { ...external, subtype: 'file_share', ...inThread },
      {},
      { kind: 'refuse-external', threadTs: '99.9', userId: 'U1' },
    ],
    [
      'external thread reply without a mention',
      { ...external, ...plain, ...inThread },
      {},
      ignore('external-user'),
    ],
    ['external user, allowed', external, { allowExternalUsers: true }, turn('100.1', true)],
    ['external bot', { ...external, bot_id: 'B9' }, {}, ignore('bot')],
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
