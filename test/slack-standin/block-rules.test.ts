import { describe, expect, it } from 'vitest';
import { mrkdwnEscapeProblem, SLACK_LIMITS, validateBlocks } from '../../dev/slack-standin/index.js';

/**
 * The stand-in's Block Kit rules: each limit accepts a payload exactly at the limit and refuses
 * one character (or item) over it, with Slack's error and a json-pointer to the place.
 */
type Block = Record<string, unknown>;

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string): Block => ({ type: 'section', text: mrkdwn(text) });
const button = (over: Record<string, unknown> = {}) => ({
  type: 'button',
  action_id: 'a',
  text: plain('Go'),
  value: 'v',
  ...over,
});
const actions = (...elements: Block[]): Block => ({ type: 'actions', elements });

/** [what, blocks at the limit, blocks one over, json-pointer named in the refusal] */
const LIMITS: Array<[string, Block[], Block[], string]> = [
  ['blocks per message', Array(50).fill(section('x')), Array(51).fill(section('x')), '/blocks'],
  ['section text', [section('x'.repeat(3_000))], [section('x'.repeat(3_001))], '/blocks/0/text/text'],
  [
    'section field text',
    [{ type: 'section', fields: [mrkdwn('x'.repeat(2_000))] }],
    [{ type: 'section', fields: [mrkdwn('x'.repeat(2_001))] }],
    '/blocks/0/fields/0/text',
  ],
  [
    'section fields',
    [{ type: 'section', fields: Array(10).fill(mrkdwn('x')) }],
    [{ type: 'section', fields: Array(11).fill(mrkdwn('x')) }],
    '/blocks/0/fields',
  ],
  [
    'header text',
    [{ type: 'header', text: plain('x'.repeat(150)) }],
    [{ type: 'header', text: plain('x'.repeat(151)) }],
    '/blocks/0/text/text',
  ],
  [
    'context elements',
    [{ type: 'context', elements: Array(10).fill(mrkdwn('x')) }],
    [{ type: 'context', elements: Array(11).fill(mrkdwn('x')) }],
    '/blocks/0/elements',
  ],
  [
    'context text',
    [{ type: 'context', elements: [mrkdwn('x'.repeat(3_000))] }],
    [{ type: 'context', elements: [mrkdwn('x'.repeat(3_001))] }],
    '/blocks/0/elements/0/text',
  ],
  [
    'button text',
    [actions(button({ text: plain('x'.repeat(75)) }))],
    [actions(button({ text: plain('x'.repeat(76)) }))],
    '/blocks/0/elements/0/text/text',
  ],
  [
    'button value',
    [actions(button({ value: 'x'.repeat(2_000) }))],
    [actions(button({ value: 'x'.repeat(2_001) }))],
    '/blocks/0/elements/0/value',
  ],
  [
    'action_id',
    [actions(button({ action_id: 'x'.repeat(255) }))],
    [actions(button({ action_id: 'x'.repeat(256) }))],
    '/blocks/0/elements/0/action_id',
  ],
  [
    'block_id',
    [{ ...section('x'), block_id: 'x'.repeat(255) }],
    [{ ...section('x'), block_id: 'x'.repeat(256) }],
    '/blocks/0/block_id',
  ],
  [
    'markdown blocks in all',
    [
      { type: 'markdown', text: 'x'.repeat(6_000) },
      { type: 'markdown', text: 'x'.repeat(6_000) },
    ],
    [
      { type: 'markdown', text: 'x'.repeat(6_000) },
      { type: 'markdown', text: 'x'.repeat(6_001) },
    ],
    '/blocks',
  ],
  [
    'unique block_ids',
    [
      { ...section('a'), block_id: 'one' },
      { ...section('b'), block_id: 'two' },
    ],
    [
      { ...section('a'), block_id: 'one' },
      { ...section('b'), block_id: 'one' },
    ],
    '/blocks/1/block_id',
  ],
  [
    'unique action_ids in a block',
    [actions(button({ action_id: 'a' }), button({ action_id: 'b' }))],
    [actions(button({ action_id: 'a' }), button({ action_id: 'a' }))],
    '/blocks/0',
  ],
  ['escaping in mrkdwn', [section('a &lt;b&gt; &amp; c')], [section('a <b> & c')], '/blocks/0/text/text'],
];

describe('the stand-in’s block rules', () => {
  it.each(LIMITS)('%s: accepts the limit, refuses one over', (_what, atLimit, over, pointer) => {
    expect(validateBlocks(atLimit)).toMatchObject({ ok: true });
    const refused = validateBlocks(over);
    expect(refused).toMatchObject({ ok: false, result: { ok: false, error: 'invalid_blocks' } });
    expect(JSON.stringify(refused)).toContain(`[json-pointer:${pointer}]`);
  });

  it('knows the limits it enforces by Slack’s numbers', () => {
    expect(SLACK_LIMITS).toMatchObject({ blocksPerMessage: 50, blocksPerView: 100, contextElements: 10 });
  });
});

describe('the escaping rule of mrkdwn', () => {
  it.each([
    ['plain words', 'nothing special'],
    ['escaped characters', 'a &lt;tag&gt; &amp; more'],
    ['a bare ampersand', 'R&D'],
    ['a user and a channel', '<@U0ALICE> in <#C0GENERAL>'],
    ['a labelled channel', '<#C0GENERAL|general>'],
    ['specials', '<!here> <!channel> <!subteam^S0TEAM|@team>'],
    ['a date with a fallback', '<!date^1700000000^{date_short_pretty} {time}|2023-11-14 22:13 UTC>'],
    ['a link', '<https://example.com/a?b=1&amp;c=2>'],
    ['a labelled link', '<https://example.com|the docs>'],
    ['a mail link', '<mailto:ops@example.com|ops>'],
    ['a block quote', '> quoted\n>> nested\n  > indented'],
  ])('accepts %s', (_what, text) => {
    expect(mrkdwnEscapeProblem(text)).toBeUndefined();
  });

  it.each([
    ['a raw placeholder', '/agent channel use <agent-id>'],
    ['a tag', 'an <b>HTML</b> description'],
    ['a lone <', 'a < b'],
    ['a control sequence inside a link label', '<https://example.com/p1|in <#C0SHARED>>'],
    ['a > inside a line', 'a -> b'],
    ['a link without a scheme', '<example.com|site>'],
    ['an unclosed sequence', 'see <@U0ALICE'],
  ])('refuses %s', (_what, text) => {
    expect(mrkdwnEscapeProblem(text)).toMatch(/unescaped/);
  });
});
