import { describe, expect, it } from 'vitest';
import { isDisguised, revealDisguisedLinks, showLinkHosts } from '../../../src/slack/views/link-hosts.js';
import { neutraliseAgentMarkdown, neutraliseSlackControls } from '../../../src/slack/views/neutralise.js';

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

describe('showLinkHosts', () => {
  it.each([
    ['a word label', '[docs](https://x.example/a?q=1)', '[docs (x.example)](https://x.example/a?q=1)'],
    [
      'the exfiltration case',
      'See [docs](https://evil.example/?q=secret).',
      'See [docs (evil.example)](https://evil.example/?q=secret).',
    ],
    [
      'a label of several words',
      '[the runbook](http://runbooks.example/cpu)',
      '[the runbook (runbooks.example)](http://runbooks.example/cpu)',
    ],
    [
      'a port is part of where it goes',
      '[admin](https://x.example:8443/a)',
      '[admin (x.example:8443)](https://x.example:8443/a)',
    ],
    [
      'www stays as the browser reaches it',
      '[home](https://WWW.X.example)',
      '[home (www.x.example)](https://WWW.X.example)',
    ],
    [
      'an internationalised host as punycode',
      '[pay](https://аpple.example/)',
      '[pay (xn--pple-43d.example)](https://аpple.example/)',
    ],
    ['a title is kept', '[docs](https://x.example "Docs")', '[docs (x.example)](https://x.example "Docs")'],
    [
      'an angle-bracket target',
      '[docs](<https://x.example/a b>)',
      '[docs (x.example)](<https://x.example/a b>)',
    ],
    ['a label with brackets', '[see [1]](https://x.example)', '[see [1] (x.example)](https://x.example)'],
    [
      'an image (Slack shows it as a link)',
      '![graph](https://x.example/g.png)',
      '![graph (x.example)](https://x.example/g.png)',
    ],
    [
      'two links on a line',
      '[a](https://a.example) and [b](https://b.example/x)',
      '[a (a.example)](https://a.example) and [b (b.example)](https://b.example/x)',
    ],
    // Not web addresses: nothing to show a host of, so the whole target is shown, unlinked.
    ['a mail link with a name', '[Alice](mailto:alice@x.example)', 'Alice (mailto:alice@x.example)'],
    ['a script', '[safe](javascript:alert(1))', 'safe (javascript:alert(1))'],
    ['a relative target', '[docs](/steal?q=1)', 'docs (/steal?q=1)'],
    // A label that reads as another address is a disguise: both addresses, unlinked.
    [
      'a disguised address',
      '[https://good.example/login](https://evil.example/steal)',
      'https://good.example/login (https://evil.example/steal)',
    ],
    [
      'a disguised image',
      '![https://good.example](https://evil.example/x.png)',
      'https://good.example (https://evil.example/x.png)',
    ],
    // A reference definition would let `[docs][1]` link anywhere: escaped, its address in view.
    [
      'a reference definition',
      '[docs][1]\n\n[1]: https://evil.example/?q=secret',
      '[docs][1]\n\n\\[1]: https://evil.example/?q=secret',
    ],
    ['an indented reference definition', '  [ref]: <//evil.example>', '  \\[ref]: <//evil.example>'],
  ])('%s', (_name, input, expected) => {
    expect(showLinkHosts(input)).toBe(expected);
  });

  it.each([
    ['a bare URL', 'see https://x.example/a?q=1'],
    ['a label that is the URL', '[https://x.example/a](https://x.example/a)'],
    ['a label that is the URL without its scheme', '[x.example/a/](https://x.example/a)'],
    ['a label on the same host', '[https://docs.example/a](https://docs.example/b)'],
    ['a host label on the same host', '[docs.example](https://docs.example/start?q=1)'],
    ['a label naming its host already', '[docs (x.example)](https://x.example/a)'],
    ['a mail address labelled with itself', '[a@x.example](mailto:a@x.example)'],
    ['a bracketed word, no link', '[good.example] (not a link)'],
    ['a log line that looks like a definition', '[INFO]: started'],
  ])('leaves %s alone', (_name, input) => {
    expect(showLinkHosts(input)).toBe(input);
  });

  it('changes nothing more when applied twice', () => {
    const once = showLinkHosts('[docs](https://x.example) [a](mailto:a@b.example) [1]: https://e.example');
    expect(showLinkHosts(once)).toBe(once);
  });
});

describe("neutraliseAgentMarkdown shows every link's host", () => {
  it.each([
    [
      'a Slack link with a word label',
      '<https://evil.example/?q=secret|docs>',
      '[docs (evil.example)](https://evil.example/?q=secret)',
    ],
    [
      'a Slack link labelled with its address',
      '<https://x.example/a|https://x.example/a>',
      'https://x.example/a',
    ],
    ['a Slack link labelled with its host', '<https://x.example|x.example>', 'https://x.example'],
    [
      'a Slack link disguised as another address',
      '<https://evil.example|https://good.example>',
      'https://good.example (https://evil.example)',
    ],
    [
      'a Slack link whose label has brackets',
      '<https://x.example/a|see [1]>',
      'see [1] (https://x.example/a)',
    ],
    ['a Slack mail link', '<mailto:a@b.example|Alice>', 'Alice (mailto:a@b.example)'],
    ['a Markdown link', 'see [docs](https://x.example/a)', 'see [docs (x.example)](https://x.example/a)'],
    [
      'not inside code',
      '`[docs](https://x.example)` and\n```\n[docs](https://x.example)\n```',
      '`[docs](https://x.example)` and\n```\n[docs](https://x.example)\n```',
    ],
  ])('%s', (_name, input, expected) => {
    expect(neutraliseAgentMarkdown(input)).toBe(expected);
  });

  it('keeps the text rendering for mrkdwn', () => {
    expect(neutraliseSlackControls('<https://x.example/a|docs>')).toBe('docs (https://x.example/a)');
    expect(neutraliseSlackControls('[docs](https://x.example/a)')).toBe('[docs](https://x.example/a)');
  });
});
