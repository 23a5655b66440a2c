/** Markdown in message-sized parts: cut at a paragraph, else a line, else a space; fences reopened. */
import { type Fence, type ScannedLine, scanLines } from './markdown-code.js';
import { graphemeBoundary, isHighSurrogate } from './text-cut.js';

/** One part: `prefix + body + suffix` is what is posted; the bodies joined are the input. */
export interface MarkdownPart {
  /** The reopened fence (e.g. "```ts\n"), when the part starts inside a code block. */
  prefix: string;
  body: string;
  /** The closing fence (e.g. "\n```"), when the part ends inside a code block. */
  suffix: string;
}

/** A cut is only "natural" if it keeps at least this share of the room (no tiny parts). */
const MIN_FILL = 0.5;

/** The fence open at `position` (a line start, or inside the line), by binary search. */
function fenceAt(lines: ScannedLine[], position: number): Fence | undefined {
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const line = lines[middle];
    if (!line) break;
    if (position < line.start) high = middle - 1;
    else if (position >= line.end) low = middle + 1;
    else return line.openFence;
  }
  return undefined;
}

const prefixFor = (fence: Fence | undefined) => (fence ? `${fence.opening}\n` : '');

function suffixFor(text: string, cut: number, fence: Fence | undefined): string {
  if (!fence || cut >= text.length) return '';
  return text[cut - 1] === '\n' ? fence.marker : `\n${fence.marker}`;
}

interface LineCut {
  at: number;
  /** A code block is open at this position (the cut would close and reopen it). */
  inCode: boolean;
  /** After a blank line, a closing fence, or before an opening fence. */
  paragraph: boolean;
}

/** Line breaks where a part may end; none that would leave an empty code block on either side. */
function lineCuts(lines: ScannedLine[]): LineCut[] {
  const cuts: LineCut[] = [];
  for (const [index, line] of lines.entries()) {
    const next = lines[index + 1];
    const opensCode = line.fenceLine && line.openFence === undefined;
    const closesCodeNext = next?.fenceLine === true && next.openFence !== undefined;
    if (opensCode || closesCodeNext) continue;
    const inCode = next?.openFence !== undefined;
    const closesCode = line.fenceLine && line.openFence !== undefined;
    const opensCodeNext = next?.fenceLine === true && next.openFence === undefined;
    const paragraph =
      !inCode && ((line.blank && line.openFence === undefined) || closesCode || opensCodeNext);
    cuts.push({ at: line.end, inCode, paragraph });
  }
  return cuts;
}

/** Cut positions in order of preference (each tier latest first), all within `room` of `start`. */
function candidateCuts(text: string, cuts: LineCut[], start: number, room: number): number[] {
  const limit = Math.min(text.length, start + room);
  const floor = start + Math.floor(room * MIN_FILL);
  const inWindow = cuts.filter((cut) => cut.at > start && cut.at <= limit).reverse();
  const filled = inWindow.filter((cut) => cut.at >= floor);
  const spaces: number[] = [];
  for (let index = limit - 1; index >= floor; index -= 1) if (text[index] === ' ') spaces.push(index + 1);
  return [
    ...filled.filter((cut) => cut.paragraph).map((cut) => cut.at),
    ...filled.filter((cut) => !cut.inCode).map((cut) => cut.at),
    ...filled.map((cut) => cut.at),
    ...inWindow.map((cut) => cut.at),
    ...spaces.filter((at) => at > start),
  ];
}

/** The longest grapheme-safe hard cut whose part, closing fence included, fits `room`. */
function hardCut(text: string, lines: ScannedLine[], start: number, room: number): number {
  let limit = Math.min(text.length, start + room);
  for (;;) {
    const cut = graphemeBoundary(text, start, limit);
    if (cut <= start) return start + (isHighSurrogate(text, start) ? 2 : 1);
    if (cut - start + suffixFor(text, cut, fenceAt(lines, cut)).length <= room) return cut;
    limit = cut - 1;
  }
}

/** Where the part starting at `start` ends: the most natural cut that fits `room`. */
function chooseCut(text: string, lines: ScannedLine[], cuts: LineCut[], start: number, room: number): number {
  if (text.length - start <= room) return text.length;
  // Never a part of only whitespace: Slack shows nothing for it.
  const content = text.slice(start, start + room).search(/\S/);
  const fits = (cut: number) =>
    content !== -1 &&
    cut > start + content &&
    cut - start + suffixFor(text, cut, fenceAt(lines, cut)).length <= room;
  return candidateCuts(text, cuts, start, room).find(fits) ?? hardCut(text, lines, start, room);
}

/**
 * `text` in parts of at most `maxChars` (≥ 100) UTF-16 code units, fences included; the bodies
 * joined give `text` back. Only a whitespace run longer than half a part makes a blank part.
 */
export function splitMarkdown(text: string, maxChars: number): MarkdownPart[] {
  if (!(maxChars >= 100)) throw new RangeError(`maxChars must be at least 100, got ${maxChars}`);
  const lines = scanLines(text);
  const cuts = lineCuts(lines);
  const parts: MarkdownPart[] = [];
  for (let start = 0; start < text.length; ) {
    const prefix = prefixFor(fenceAt(lines, start));
    const cut = chooseCut(text, lines, cuts, start, maxChars - prefix.length);
    parts.push({ prefix, body: text.slice(start, cut), suffix: suffixFor(text, cut, fenceAt(lines, cut)) });
    start = cut;
  }
  return parts;
}
