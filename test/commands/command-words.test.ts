import { describe, expect, it } from 'vitest';
import { parseGb, tokenize, unescapeSlackText } from '../../src/commands/command-words.js';

describe('tokenize', () => {
  it.each([
    [
      'capacity move 2.5 from "QA Team" to prod',
      ['capacity', 'move', '2.5', 'from', 'QA Team', 'to', 'prod'],
    ],
    ["  a   'b c'  d ", ['a', 'b c', 'd']],
    ['from “QA Team” to ‘Dev Ops’', ['from', 'QA Team', 'to', 'Dev Ops']],
    ['""', ['']],
    ["O'Brien team", ["O'Brien", 'team']],
    ['', []],
  ])('%s', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it('returns undefined for an unterminated quote', () => {
    expect(tokenize('move 1 from "QA Team to prod')).toBeUndefined();
  });
});

describe('parseGb', () => {
  it.each([
    ['2.5', 2.5],
    ['2,5', 2.5],
    ['10GB', 10],
    ['1gb', 1],
    ['.5', 0.5],
    ['0', 0],
    ['-1', -1],
    ['abc', undefined],
    ['1.2.3', undefined],
    [undefined, undefined],
  ])('%s → %s', (token, expected) => {
    expect(parseGb(token)).toBe(expected);
  });
});

it('undoes Slack escapes and mailto links', () => {
  expect(unescapeSlackText('a &amp; b &lt;c&gt; <mailto:x@y.io|x@y.io>')).toBe('a & b <c> x@y.io');
});
