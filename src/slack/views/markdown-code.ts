/** Where Markdown's code is (https://spec.commonmark.org/0.31.2/#fenced-code-blocks). */

/** An open fenced code block: its marker ("```", "~~~~") and its opening line as written ("```ts"). */
export type Fence = { marker: string; opening: string };

/** A line (`end` past its break): `openFence` is open at its start; a `fenceLine` opens or closes one. */
export interface ScannedLine {
  start: number;
  end: number;
  blank: boolean;
  openFence: Fence | undefined;
  fenceLine: boolean;
}

// CommonMark allows 0-3 spaces, but a fence nested in a list item is indented further; agent
// answers nest code in lists far more often than they use indented code blocks.
const OPENING_FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const CLOSING_FENCE = /^[ \t]*(`{3,}|~{3,})[ \t]*$/;

function opensFence(content: string): Fence | undefined {
  const match = OPENING_FENCE.exec(content);
  const marker = match?.[1];
  if (!match || !marker) return undefined;
  // A backtick fence's info string may not contain backticks (it would be a code span).
  if (marker.startsWith('`') && (match[2] ?? '').includes('`')) return undefined;
  return { marker, opening: content };
}

function closesFence(content: string, fence: Fence): boolean {
  const marker = CLOSING_FENCE.exec(content)?.[1];
  return marker !== undefined && marker[0] === fence.marker[0] && marker.length >= fence.marker.length;
}

/** The text's lines (line breaks kept), each with the fence open at its start. */
export function scanLines(text: string): ScannedLine[] {
  const lines: ScannedLine[] = [];
  let open: Fence | undefined;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    const content = text.slice(start, end).replace(/\r?\n$/, '');
    const openFence = open;
    if (open === undefined) open = opensFence(content);
    else if (closesFence(content, open)) open = undefined;
    lines.push({ start, end, blank: content.trim() === '', openFence, fenceLine: open !== openFence });
    start = end;
  }
  return lines;
}

/** A stretch of the text that is either code (fenced block or inline span) or prose. */
export type TextSegment = { code: boolean; text: string };

function splitInlineCode(prose: string): TextSegment[] {
  const segments: TextSegment[] = [];
  const run = /`+/g;
  let last = 0;
  for (let match = run.exec(prose); match !== null; match = run.exec(prose)) {
    const ticks = match[0];
    // The span ends at the next run of exactly as many backticks, within the paragraph.
    const closer = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
    closer.lastIndex = match.index + ticks.length;
    const close = closer.exec(prose);
    if (!close || prose.slice(match.index, close.index).includes('\n\n')) continue;
    if (match.index > last) segments.push({ code: false, text: prose.slice(last, match.index) });
    last = close.index + ticks.length;
    segments.push({ code: true, text: prose.slice(match.index, last) });
    run.lastIndex = last;
  }
  if (last < prose.length) segments.push({ code: false, text: prose.slice(last) });
  return segments;
}

/** The text as alternating prose and code; joining the segments' texts gives the text back. */
export function codeSegments(text: string): TextSegment[] {
  const runs: TextSegment[] = [];
  for (const line of scanLines(text)) {
    const code = line.openFence !== undefined || line.fenceLine;
    const content = text.slice(line.start, line.end);
    const last = runs.at(-1);
    if (last?.code === code) last.text += content;
    else runs.push({ code, text: content });
  }
  return runs.flatMap((run) => (run.code ? [run] : splitInlineCode(run.text)));
}
