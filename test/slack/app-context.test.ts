import { describe, expect, it } from 'vitest';
import { appContext } from '../../dev/slack-standin/index.js';
import { type SlackAppContext, viewedPlaceOf } from '../../src/slack/app-context.js';

const TEAM = 'T0TEST';

describe('viewedPlaceOf (app_context as @slack/types 3.2 shapes it)', () => {
  it.each<[string, SlackAppContext | undefined, ReturnType<typeof viewedPlaceOf>]>([
    ['none', undefined, undefined],
    ['no entities', {}, undefined],
    ['a channel', appContext({ channel: 'C1' }), { channel: 'C1' }],
    [
      'a message before its channel',
      appContext({ channel: 'C1', messageTs: '1.2' }),
      { channel: 'C1', threadTs: '1.2' },
    ],
    [
      'a message listed after a channel still wins',
      {
        entities: [
          { type: 'slack#/types/channel_id', value: 'C9' },
          { type: 'slack#/types/message_context', value: { channel_id: 'C1', message_ts: '1.2' } },
        ],
      },
      { channel: 'C1', threadTs: '1.2' },
    ],
    ['another workspace', appContext({ channel: 'C1', teamId: 'T0OTHER' }), undefined],
    ['a canvas', { entities: [{ type: 'slack#/types/canvas_id', value: 'F1' }] }, undefined],
    [
      'a malformed message entity falls back to the channel',
      {
        entities: [
          { type: 'slack#/types/message_context', value: { channel_id: 'C1' } },
          { type: 'slack#/types/channel_id', value: 'C1' },
        ],
      },
      { channel: 'C1' },
    ],
  ])('%s', (_name, context, expected) => {
    expect(viewedPlaceOf(context, TEAM)).toEqual(expected);
  });
});
