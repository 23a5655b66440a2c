import { UsageError } from './subcommand.js';

/** The words of `/agent …` text, as parsers read them. Pure. */

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

/** Undoes Slack's escaping of `&`, `<`, `>` and its `<mailto:a@b|a@b>` links: words come back as typed. */
export function unescapeSlackText(text: string): string {
  return text
    .replace(/<mailto:[^|>]+\|([^>]+)>/g, '$1')
    .replace(/<mailto:([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Splits on whitespace; a quoted run (straight or typographic quotes) is one token; undefined if unclosed. */
export function tokenize(text: string): string[] | undefined {
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const close = QUOTES[char];
    if (close !== undefined) {
      const end = text.indexOf(close, index + 1);
      if (end < 0) return undefined;
      tokens.push(text.slice(index + 1, end));
      index = end + 1;
      continue;
    }
    const word = /^\S+/.exec(text.slice(index))?.[0] ?? char;
    tokens.push(word);
    index += word.length;
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
