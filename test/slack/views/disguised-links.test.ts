import { describe, expect, it } from 'vitest';
import { isDisguised, revealDisguisedLinks } from '../../../src/slack/views/disguised-links.js';
import { neutraliseSlackControls } from '../../../src/slack/views/neutralise.js';

describe('revealDisguisedLinks', () => {
  it.each([
    [
      'a URL label on another host',
      '[https://good.example/login](https://evil.example/steal)',
      'https://good.example/login (https://evil.example/steal)',
    ],
    ['a bare host label', '[good.example](https://evil.example)', 'good.example (https://evil.example)'],
    [
      'a www label',
      'see [www.bank.example](http://evil.example/x)',
      'see www.bank.example (http://evil.example/x)',
    ],
    [
      'a host label with a path',
      '[bank.example/login](https://evil.example)',
      'bank.example/login (https://evil.example)',
    ],
    [
      'an emphasised URL label',
      '[**https://good.example**](https://evil.example)',
      '**https://good.example** (https://evil.example)',
    ],
    [
      'a code URL label',
      '[`https://good.example`](https://evil.example)',
      '`https://good.example` (https://evil.example)',
    ],
    [
      'an angle-bracket target',
      '[https://good.example](<https://evil.example/a b>)',
      'https://good.example (https://evil.example/a b)',
    ],
    [
      'a target with a title',
      '[https://good.example](https://evil.example "Good")',
      'https://good.example (https://evil.example)',
    ],
    [
      'a look-alike subdomain',
      '[https://good.example](https://good.example.evil.example)',
      'https://good.example (https://good.example.evil.example)',
    ],
    ['a URL label over a relative target', '[https://good.example](/steal)', 'https://good.example (/steal)'],
    [
      'a mail label on another address',
      '[mailto:boss@good.example](mailto:thief@evil.example)',
      'mailto:boss@good.example (mailto:thief@evil.example)',
    ],
    // `.zip` is a real TLD and phishers use it: a file-like label is shown with its target too.
    [
      'a file-like label that is also a host',
      '[setup.zip](https://evil.example/setup.zip)',
      'setup.zip (https://evil.example/setup.zip)',
    ],
    [
      'two links on a line, one disguised',
      '[docs](https://docs.example) and [good.example](https://evil.example)',
      '[docs](https://docs.example) and good.example (https://evil.example)',
    ],
  ])('reveals %s', (_name, input, expected) => {
    expect(revealDisguisedLinks(input)).toBe(expected);
  });

  it.each([
    ['a word label', '[the runbook](https://evil.example/runbook)'],
    ['a label on the same host', '[https://docs.example/a](https://docs.example/b)'],
    ['a host label on the same host', '[docs.example](https://docs.example/start)'],
    ['www and bare host alike', '[www.docs.example](https://docs.example)'],
    ['upper-case host', '[DOCS.EXAMPLE](https://docs.example)'],
    ['a version number', '[v1.2](https://evil.example)'],
    ['an image', '![https://good.example](https://evil.example/x.png)'],
    ['a bracketed word, no link', '[good.example] (not a link)'],
  ])('leaves %s alone', (_name, input) => {
    expect(revealDisguisedLinks(input)).toBe(input);
  });
});

describe('isDisguised', () => {
  it.each([
    ['https://good.example', 'https://evil.example', true],
    ['good.example', 'https://good.example/x', false],
    ['click', 'https://evil.example', false],
    ['https://good.example', 'not a url', true],
  ])('%s → %s: %s', (label, target, expected) => {
    expect(isDisguised(label, target)).toBe(expected);
  });
});

describe('neutraliseSlackControls reveals disguised Markdown links', () => {
  it.each([
    [
      'in prose',
      'Log in at [https://good.example/login](https://evil.example/steal).',
      'Log in at https://good.example/login (https://evil.example/steal).',
    ],
    [
      'with a Slack autolink as its label',
      '[<https://good.example>](https://evil.example)',
      'https://good.example (https://evil.example)',
    ],
    [
      'not inside code',
      '`[https://good.example](https://evil.example)`',
      '`[https://good.example](https://evil.example)`',
    ],
  ])('%s', (_name, input, expected) => {
    expect(neutraliseSlackControls(input)).toBe(expected);
  });
});
