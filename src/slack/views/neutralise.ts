/** Anyone who can write a log line can put `<!channel>` into an answer: sequences become plain text. */
import { revealDisguisedLinks, showLinkHosts } from './link-hosts.js';
import { codeSegments } from './markdown-code.js';

/** U+2060 WORD JOINER: invisible, but `@\u2060here` is no longer the word `@here`. */
const WORD_JOINER = '\u2060';
/** U+200B ZERO WIDTH SPACE: inside code, splits `<` from the rest so Slack sees no sequence. */
const ZERO_WIDTH_SPACE = '\u200B';

/**
 * Every `<…>` Slack treats specially (https://api.slack.com/reference/surfaces/formatting#advanced):
 * `<!special>` commands, `<@user>`, `<#channel>`, links. `<!DOCTYPE html>` stays; bare links need
 * `//` (or mailto:/tel:) so `<std::string>` stays prose; labelled links take any scheme.
 */
const CONTROL_SEQUENCE =
  /<(?:!(?:channel|here|everyone|group|subteam\^[^<>\n|]*|date\^[^<>\n|]*)(?:\|[^<>\n]*)?|[@#][^<>\s|]+(?:\|[^<>\n]*)?|(?:[a-z][a-z0-9+.-]*:\/\/|mailto:|tel:)[^<>\s|]*|[a-z][a-z0-9+.-]*:[^<>\s|]*\|[^<>\n]*)>/gi;

/** `@channel`-style words that ping when the message is posted with `link_names`. */
const BARE_BROADCAST = /(^|[^\w@])@(channel|here|everyone|group)\b/gi;

function targetAndLabel(inner: string): { target: string; label: string | undefined } {
  const bar = inner.indexOf('|');
  if (bar === -1) return { target: inner, label: undefined };
  const label = inner.slice(bar + 1).trim();
  return { target: inner.slice(0, bar), label: label === '' ? undefined : label };
}

/** `@` + name that cannot ping: the word joiner breaks Slack's mention parsing. */
const harmlessAt = (name: string) => `@${WORD_JOINER}${name.replace(/^@/, '')}`;

/** `<!…>` specials: broadcasts, user groups and dates. */
function describeSpecial(inner: string): string {
  const { target, label } = targetAndLabel(inner.slice(1));
  const [command = '', argument] = target.split('^');
  if (command.toLowerCase() === 'date') return label ?? argument ?? 'a date';
  if (command.toLowerCase() === 'subteam') return harmlessAt(label ?? argument ?? 'group');
  return harmlessAt(command.toLowerCase());
}

/** A link shown as `label (url)`, or just the address when the label adds nothing. */
function describeLink(target: string, label: string | undefined): string {
  const address = target.replace(/^(mailto|tel):/i, '');
  const shown = label?.replace(/\/$/, '');
  if (shown === undefined || shown === target.replace(/\/$/, '') || shown === address) return address;
  if (shown === target.replace(/^https?:\/\//i, '').replace(/\/$/, '')) return target;
  return `${label} (${target})`;
}

/** A Slack link as a Markdown link; {@link describeLink}'s text when no label would survive as one. */
function markdownLink(target: string, label: string | undefined): string {
  const readable = describeLink(target, label);
  // describeLink keeps the label only when it adds something; only then is there a link to write.
  if (label === undefined || readable !== `${label} (${target})`) return readable;
  if (/[[\]\n]/.test(label) || /[\s()<>]/.test(target)) return readable;
  return `[${label}](${target})`;
}

type LinkStyle = 'text' | 'markdown';

function describeSequence(sequence: string, links: LinkStyle): string {
  const inner = sequence.slice(1, -1);
  if (inner.startsWith('!')) return describeSpecial(inner);
  if (inner.startsWith('@') || inner.startsWith('#')) {
    const { target, label } = targetAndLabel(inner.slice(1));
    return inner.startsWith('@') ? harmlessAt(label ?? target) : `#${(label ?? target).replace(/^#/, '')}`;
  }
  const { target, label } = targetAndLabel(inner);
  return links === 'markdown' ? markdownLink(target, label) : describeLink(target, label);
}

/** Links are checked after the sequences: an autolink used as a label is judged as the address it reads. */
function neutraliseProse(text: string, links: LinkStyle): string {
  const readable = text
    .replace(CONTROL_SEQUENCE, (sequence) => describeSequence(sequence, links))
    .replace(BARE_BROADCAST, (_match, before: string, word: string) => `${before}${harmlessAt(word)}`);
  return links === 'markdown' ? showLinkHosts(readable) : revealDisguisedLinks(readable);
}

/** Code keeps every visible character; only an invisible space after `<` breaks the sequence. */
const neutraliseCode = (text: string) =>
  text.replace(CONTROL_SEQUENCE, (sequence) => `<${ZERO_WIDTH_SPACE}${sequence.slice(1)}`);

/**
 * Untrusted text safe to post: `<!here>` → `@here` that cannot ping, `<@U1|name>` → `@name`,
 * `<https://x|label>` → `label (https://x)`; code keeps its visible text; `a < b` stays.
 */
export const neutraliseSlackControls = (text: string): string => neutralise(text, 'text');

/** {@link neutraliseSlackControls} for a `markdown` block: links stay links and show their host. */
export const neutraliseAgentMarkdown = (text: string): string => neutralise(text, 'markdown');

const neutralise = (text: string, links: LinkStyle): string =>
  codeSegments(text)
    .map((segment) => (segment.code ? neutraliseCode(segment.text) : neutraliseProse(segment.text, links)))
    .join('');
