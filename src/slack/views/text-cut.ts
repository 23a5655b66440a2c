/** Cuts that keep characters whole; UTF-16 units are never fewer than Slack's characters. */

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** True when the code unit at `index` starts a surrogate pair. */
export function isHighSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xd800 && code <= 0xdbff;
}

/** The latest grapheme boundary in (`start`, `limit`]; else a code point boundary (maybe ≤ `start`). */
export function graphemeBoundary(text: string, start: number, limit: number): number {
  if (limit >= text.length) return text.length;
  // A window is enough: real graphemes are at most a few dozen code units.
  const from = Math.max(start, limit - 64);
  let best = from;
  for (const { index } of graphemes.segment(text.slice(from, limit + 64))) {
    if (from + index > limit) break;
    best = from + index;
  }
  if (best > start) return best;
  return isHighSurrogate(text, limit - 1) ? limit - 1 : limit;
}

/**
 * `text` in at most `max` code units with "…", cut at a word in the last fifth if there is one;
 * `keepWhole` moves a cut back out of what must not be split (mrkdwn.ts).
 */
export function truncate(
  text: string,
  max: number,
  ellipsis = '…',
  keepWhole = (_text: string, at: number) => at,
): string {
  if (text.length <= max) return text;
  const limit = Math.max(0, max - ellipsis.length);
  const cut = keepWhole(text, graphemeBoundary(text, 0, limit));
  let space = cut;
  while (space > 0 && !/\s/.test(text[space - 1] ?? '')) space -= 1;
  const end = space - 1 >= limit * 0.8 ? keepWhole(text, space - 1) : cut;
  return `${text.slice(0, end).trimEnd()}${ellipsis}`;
}
