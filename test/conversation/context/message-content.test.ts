import { describe, expect, it } from 'vitest';
import { mentionedUserIds, messageMarkup } from '../../../src/conversation/context/message-content.js';

describe('messageMarkup', () => {
  it('takes attachments: pretext, title, text, fields; fallback only when nothing else', () => {
    expect(
      messageMarkup({
        ts: '1',
        attachments: [
          {
            pretext: 'New alert',
            title: 'CPU',
            text: '97%',
            fields: [{ title: 'host', value: 'db-1' }],
            fallback: 'x',
          },
          { fallback: 'only fallback' },
          { color: '#f00' },
        ],
      }),
    ).toBe('New alert\nCPU\n97%\nhost: db-1\nonly fallback');
  });

  it('takes section (text and fields), header, context, markdown and rich_text blocks; skips unknown ones', () => {
    const text = messageMarkup({
      ts: '1',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Incident 42' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: '*Sev 1*' },
          fields: [{ type: 'mrkdwn', text: 'svc: api' }],
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: 'from PagerDuty' }, { type: 'image' }] },
        { type: 'image', image_url: 'https://x', alt_text: 'graph' },
        { type: 'markdown', text: '**bold**' },
        { type: 'future_block', text: { text: 'never shown' } },
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'ping ' },
                { type: 'user', user_id: 'UALICE' },
                { type: 'text', text: ' in ' },
                { type: 'channel', channel_id: 'C1' },
                { type: 'text', text: ' ' },
                { type: 'link', url: 'https://x.example', text: 'docs' },
                { type: 'emoji', name: 'fire' },
              ],
            },
            {
              type: 'rich_text_list',
              elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] }],
            },
          ],
        },
      ],
    });
    expect(text).toBe(
      'Incident 42\n*Sev 1*\nsvc: api\nfrom PagerDuty\n**bold**\nping <@UALICE> in <#C1> <https://x.example|docs>:fire:\n- one',
    );
    expect(text).not.toContain('never shown');
  });

  it('does not repeat what `text` already says (a composed message and its rich_text block)', () => {
    expect(
      messageMarkup({
        ts: '1',
        text: 'hello   world',
        blocks: [
          {
            type: 'rich_text',
            elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'hello world' }] }],
          },
        ],
      }),
    ).toBe('hello   world');
  });

  it('survives malformed shapes', () => {
    expect(
      messageMarkup({
        ts: '1',
        blocks: [
          { type: 'section', text: 'not an object', fields: 'nope' },
          { type: 'rich_text', elements: null },
        ] as never,
        attachments: 'not a list' as never,
      }),
    ).toBe('');
  });
});

describe('mentionedUserIds', () => {
  it('finds each mentioned user once', () => {
    expect(mentionedUserIds('<@U1> and <@U2|bob> and <@U1>')).toEqual(['U1', 'U2']);
  });
});
