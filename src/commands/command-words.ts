import { UsageError } from './subcommand.js';

/** The words of `/agent …` text, as parsers read them. Pure. */

/** Undoes Slack's escaping of `&`, `<`, `>` and its `<mailto:a@b|a@b>` links: words come back as typed. */
export function unescapeSlackText(text: string): string {
  return text
    .replace(/<mailto:[^|>]+\|([^>]+)>/g, '$1')
    .replace(/<mailto:([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** A quoted run (straight or typographic quotes, as Slack clients substitute), a lone opening quote, or a word. */
const TOKEN = /\s*(?:"([^"]*)"|'([^']*)'|“([^”]*)”|‘([^’]*)’|(["'“‘])|(\S+))/g;

/** Splits on whitespace; a quoted run (straight or typographic quotes) is one token; undefined if unclosed. */
export function tokenize(text: string): string[] | undefined {
  const tokens: string[] = [];
  for (const [, ...groups] of text.trimEnd().matchAll(TOKEN)) {
    if (groups[4] !== undefined) return undefined;
    tokens.push(groups.find((group) => group !== undefined) ?? '');
  }
  return tokens;
}

/** A decimal number of GB: `2.5`, `2,5`, `2.5GB` (the unit is optional). */
export function parseGb(token: string | undefined): number | undefined {
  const match = /^([+-]?\d+(?:[.,]\d+)?|[+-]?[.,]\d+)\s*(?:gb)?$/i.exec(token ?? '');
  return match?.[1] ? Number(match[1].replace(',', '.')) : undefined;
}

/** Refuses fewer than `min` or more than `max` words. */
export function expectCount(name: string, args: string[], min: number, max: number): void {
  if (args.length < min) throw new UsageError(name, 'something is missing');
  if (args.length > max) throw new UsageError(name, `unexpected “${args[max]}”`);
}

/** The one word after a switch: `on` or `off`. */
export function parseOnOff(name: string, args: string[]): boolean {
  expectCount(name, args, 1, 1);
  const switched = args[0]?.toLowerCase();
  if (switched !== 'on' && switched !== 'off')
    throw new UsageError(name, `“${args[0]}” is not \`on\` or \`off\``);
  return switched === 'on';
}
