import { describe, expect, it } from 'vitest';
import { neutraliseSlackControls } from '../../../src/slack/views/neutralise.js';

/** What a person sees: the invisible joiner and zero-width space removed. */
const visible = (text: string) => text.replace(/[\u2060\u200B]/g, '');
const WJ = '\u2060';
const ZWSP = '\u200B';

/** Anything Slack could still read as a ping or a disguised link. */
const LIVE_SEQUENCE = /<[!@#]|<(https?|mailto|tel):|(^|[^\w@])@(channel|here|everyone|group)\b/i;

describe('neutraliseSlackControls', () => {
  it.each([
    ['broadcast channel', 'Alert <!channel> now', `Alert @${WJ}channel now`],
    ['broadcast here', '<!here>', `@${WJ}here`],
    ['broadcast everyone', '<!everyone>', `@${WJ}everyone`],
    ['broadcast with a label', '<!channel|look at me>', `@${WJ}channel`],
    ['broadcast with its own label', '<!here|here>', `@${WJ}here`],
    ['upper-case broadcast', '<!CHANNEL>', `@${WJ}channel`],
    ['legacy group', '<!group>', `@${WJ}group`],
    ['user group with label', '<!subteam^S0123|@oncall>', `@${WJ}oncall`],
    ['user group without label', '<!subteam^S0123>', `@${WJ}S0123`],
    ['date with fallback', '<!date^1392734382^{date_pretty}|Feb 18, 2014>', 'Feb 18, 2014'],
    ['date without fallback', '<!date^1392734382^{date}>', '1392734382'],
    ['user mention', 'ask <@U123>', `ask @${WJ}U123`],
    ['user mention with name', '<@W123|alice>', `@${WJ}alice`],
    ['user mention with empty label', '<@U123|>', `@${WJ}U123`],
    ['channel with name', 'see <#C123|general>', 'see #general'],
    ['channel without name', '<#C123>', '#C123'],
    ['labelled link', '<https://x.example/a|click here>', 'click here (https://x.example/a)'],
    ['bare link', '<https://x.example/a>', 'https://x.example/a'],
    ['link labelled with itself', '<https://x.example|https://x.example>', 'https://x.example'],
    ['link labelled with its host', '<https://x.example|x.example>', 'https://x.example'],
    [
      'deceptive link',
      '<https://evil.example|https://bank.example>',
      'https://bank.example (https://evil.example)',
    ],
    ['mail link', '<mailto:a@b.example|a@b.example>', 'a@b.example'],
    ['mail link with a name', '<mailto:a@b.example|Alice>', 'Alice (mailto:a@b.example)'],
    ['odd scheme with a label', '<javascript:alert(1)|safe>', 'safe (javascript:alert(1))'],
    ['bare @here word', '@here please look', `@${WJ}here please look`],
    ['bare @channel after punctuation', '(@channel)', `(@${WJ}channel)`],
    ['several on one line', '<!here> <@U1> <#C1|ops>', `@${WJ}here @${WJ}U1 #ops`],
    ['inside emphasis', '**<!here>**', `**@${WJ}here**`],
  ])('%s', (_name, input, expected) => {
    expect(neutraliseSlackControls(input)).toBe(expected);
  });

  it.each([
    ['comparisons', 'if a < b and c > d then a <= c'],
    ['HTML', '<div class="x">hi</div>'],
    ['generics', 'Vec<String> and Map<K, V|W>'],
    ['C++ scope', '<std::string>'],
    ['doctype', '<!DOCTYPE html>'],
    ['HTML comment', '<!-- note -->'],
    ['e-mail address', 'write to ops@here.example'],
    ['word starting with here', 'hi @heretic'],
    ['Markdown link', '[docs](https://docs.example)'],
    ['plain URL', 'https://docs.example/path?q=<1>'],
    ['empty', ''],
  ])('leaves %s alone', (_name, input) => {
    expect(neutraliseSlackControls(input)).toBe(input);
  });

  it.each([
    ['inline code', 'run `echo <!channel>` now', `run \`echo <${ZWSP}!channel>\` now`],
    ['double-backtick code', '``a <@U1> ` b``', `\`\`a <${ZWSP}@U1> \` b\`\``],
    ['fenced code', '```\n<@U1> <#C1|x> a < b\n```', `\`\`\`\n<${ZWSP}@U1> <${ZWSP}#C1|x> a < b\n\`\`\``],
    ['tilde fence', '~~~sh\ncurl <https://x.example>\n~~~', `~~~sh\ncurl <${ZWSP}https://x.example>\n~~~`],
    ['bare @here in code is not a ping', '`@here`', '`@here`'],
  ])('in %s keeps every visible character', (_name, input, expected) => {
    const output = neutraliseSlackControls(input);
    expect(output).toBe(expected);
    expect(visible(output)).toBe(input);
  });

  it('treats an unmatched backtick as prose', () => {
    expect(neutraliseSlackControls('a ` <!here>')).toBe(`a \` @${WJ}here`);
  });

  it('leaves no live sequence in a hostile log line, and is idempotent', () => {
    const hostile = [
      'ERROR <!channel> disk full <!here|x> <!everyone>',
      'user <@U0ADMIN|admin> in <#C0SEC|security> says <https://evil.example|https://sso.example/login>',
      '`<!channel>` and\n```\n<@U1>\n```\n@everyone <!subteam^S1|@sre>',
    ].join('\n');
    const once = neutraliseSlackControls(hostile);
    expect(once).not.toMatch(LIVE_SEQUENCE);
    expect(neutraliseSlackControls(once)).toBe(once);
  });
});
