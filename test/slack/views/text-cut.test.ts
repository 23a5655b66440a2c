import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from '../../../src/slack/views/plain-text.js';
import { graphemeBoundary, truncate } from '../../../src/slack/views/text-cut.js';

describe('truncate', () => {
  it.each([
    ['fits', 'hello world', 20, 'hello world'],
    ['cuts at a word in the last fifth', 'alpha beta gamma delta', 18, 'alpha beta gamma…'],
    ['cuts inside a word when no space is near', 'abcdefghijklmnopqrstuvwxyz', 10, 'abcdefghi…'],
    ['keeps an emoji whole', `${'a'.repeat(8)}😀😀`, 10, `${'a'.repeat(8)}…`],
    ['keeps a family emoji whole', 'ab👨‍👩‍👧‍👦cd', 8, 'ab…'],
  ])('%s', (_name, text, max, expected) => {
    const result = truncate(text, max);
    expect(result).toBe(expected);
    expect(result.length).toBeLessThanOrEqual(max);
  });
});

describe('graphemeBoundary', () => {
  it.each([
    ['between letters', 'abcdef', 3, 3],
    ['before a surrogate pair it would split', 'ab😀cd', 3, 2],
    ['before a skin-toned emoji', 'a👍🏽b', 4, 1],
    ['at the end', 'abc', 10, 3],
  ])('%s', (_name, text, limit, expected) => {
    expect(graphemeBoundary(text, 0, limit)).toBe(expected);
  });
});

describe('markdownToPlainText', () => {
  it.each([
    ['heading', '## Result', 'Result'],
    ['quote', '> quoted', 'quoted'],
    ['bullets', '- one\n* two\n  + three', '• one\n• two\n  • three'],
    ['image', '![graph](https://x.example/g.png)', 'graph'],
    ['bold, strike', '**a** __b__ ~~c~~', 'a b c'],
    ['snake_case survives', 'use log_level_name here', 'use log_level_name here'],
    ['blank lines collapse', 'a\n\n\n\nb', 'a\n\nb'],
    ['fences go, code stays', '```py\nprint(1)\n```', 'print(1)'],
  ])('%s', (_name, markdown, expected) => {
    expect(markdownToPlainText(markdown)).toBe(expected);
  });
});
