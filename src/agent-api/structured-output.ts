/**
 * Agents configured with structured output answer a done run with a JSON value instead of text
 * (the vendor's agent guide). The bot renders Markdown, so such a value becomes a JSON code block:
 * readable, copyable, and never mistaken for an invalid response.
 */

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * The run's `message` as Markdown: a string as it is, null/absent as undefined, any other JSON
 * value pretty-printed in a `json` code fence longer than any backtick run inside it.
 */
export function messageAsMarkdown(message: unknown): string | undefined {
  if (message === undefined || message === null) return undefined;
  if (typeof message === 'string') return message;
  const json = JSON.stringify(message, null, 2);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(json) + 1));
  return `${fence}json\n${json}\n${fence}`;
}
