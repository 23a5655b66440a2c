import { describe, expect, it } from 'vitest';
import { scanLines } from '../../../src/slack/views/markdown-code.js';
import { type MarkdownPart, splitMarkdown } from '../../../src/slack/views/split-markdown.js';

const rendered = (part: MarkdownPart) => `${part.prefix}${part.body}${part.suffix}`;

/** True when a code fence is still open at the end of `text`. */
function endsInsideFence(text: string): boolean {
  const last = scanLines(text).at(-1);
  if (!last) return false;
  return last.fenceLine ? last.openFence === undefined : last.openFence !== undefined;
}

/** The rules every split obeys, whatever the input. */
function expectValidSplit(text: string, max: number, parts: MarkdownPart[], allowBlank = false): void {
  expect(parts.map((part) => part.body).join('')).toBe(text);
  for (const [index, part] of parts.entries()) {
    expect(rendered(part).length).toBeLessThanOrEqual(max);
    if (!allowBlank) expect(part.body).toMatch(/\S/);
    // No code block left empty by a cut.
    expect(rendered(part)).not.toMatch(/^[ \t]*```[^\n]*\n```$/m);
    // No character cut in half.
    expect(part.body).not.toMatch(/^[\uDC00-\uDFFF]/);
    expect(part.body).not.toMatch(/[\uD800-\uDBFF]$/);
    if (index < parts.length - 1) expect(endsInsideFence(rendered(part))).toBe(false);
  }
}

const words = (count: number, seed = 'word') =>
  Array.from({ length: count }, (_, i) => `${seed}${i % 10}`).join(' ');

describe('splitMarkdown', () => {
  it.each<[string, string, number, string[]]>([
    ['fits in one part', 'short answer', 100, ['short answer']],
    [
      'cuts after a paragraph',
      `${'a'.repeat(60)}\n\n${'b'.repeat(60)}`,
      100,
      [`${'a'.repeat(60)}\n\n`, 'b'.repeat(60)],
    ],
    [
      'prefers the paragraph to a later line break',
      `${'a'.repeat(55)}\n\n${'b'.repeat(20)}\n${'c'.repeat(40)}`,
      100,
      [`${'a'.repeat(55)}\n\n`, `${'b'.repeat(20)}\n${'c'.repeat(40)}`],
    ],
    [
      'takes a line break when no paragraph fits',
      `${'a'.repeat(70)}\n${'b'.repeat(70)}`,
      100,
      [`${'a'.repeat(70)}\n`, 'b'.repeat(70)],
    ],
    [
      'takes a late line break over an early paragraph',
      `${'a'.repeat(10)}\n\n${'b'.repeat(70)}\n${'c'.repeat(40)}`,
      100,
      [`${'a'.repeat(10)}\n\n${'b'.repeat(70)}\n`, 'c'.repeat(40)],
    ],
    [
      'cuts after a code block rather than inside it',
      `intro\n\n\`\`\`\n${'x'.repeat(50)}\n\`\`\`\n${'d'.repeat(60)}`,
      100,
      [`intro\n\n\`\`\`\n${'x'.repeat(50)}\n\`\`\`\n`, 'd'.repeat(60)],
    ],
  ])('%s', (_name, text, max, bodies) => {
    const parts = splitMarkdown(text, max);
    expect(parts.map((part) => part.body)).toEqual(bodies);
    expectValidSplit(text, max, parts);
  });

  it('closes a code fence at a cut and reopens it with the same info string', () => {
    const code = Array.from({ length: 40 }, (_, i) => `print(${i})`).join('\n');
    const text = `Run this:\n\n\`\`\`python title="x.py"\n${code}\n\`\`\`\nDone.`;
    const parts = splitMarkdown(text, 150);
    expectValidSplit(text, 150, parts);
    expect(parts.length).toBeGreaterThan(2);
    expect(parts[0]?.suffix).toBe('```');
    expect(parts[1]?.prefix).toBe('```python title="x.py"\n');
    expect(parts.at(-1)?.prefix).toBe('```python title="x.py"\n');
    for (const part of parts.slice(1)) expect(rendered(part).startsWith('```python')).toBe(true);
  });

  it.each([
    ['tilde fence', '~~~~sh', '~~~~'],
    ['long backtick fence holding a short one', '````md', '````'],
    ['indented fence in a list item', '    ```js', '```'],
  ])('reopens a %s the way it was opened', (_name, opening, marker) => {
    const body = Array.from({ length: 30 }, (_, i) => `line ${i} \`\`\``).join('\n');
    const text = `${opening}\n${body}\n${opening.trim().slice(0, marker.length)}\nafter`;
    const parts = splitMarkdown(text, 120);
    expectValidSplit(text, 120, parts);
    expect(parts[0]?.suffix).toBe(marker);
    expect(parts[1]?.prefix).toBe(`${opening}\n`);
  });

  it('closes a fence mid-line on a hard cut inside code', () => {
    const text = `\`\`\`\n${'y'.repeat(500)}\n\`\`\``;
    const parts = splitMarkdown(text, 200);
    expectValidSplit(text, 200, parts);
    expect(parts[0]?.suffix).toBe('\n```');
    expect(parts[1]?.prefix).toBe('```\n');
  });

  it('leaves an unclosed fence at the end unclosed, as written', () => {
    const text = `\`\`\`\n${Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n')}`;
    const parts = splitMarkdown(text, 100);
    expectValidSplit(text, 100, parts);
    expect(parts.at(-1)?.suffix).toBe('');
  });

  it('cuts a 15,000-character line with no breaks into full parts', () => {
    const text = 'z'.repeat(15_000);
    const parts = splitMarkdown(text, 4_000);
    expectValidSplit(text, 4_000, parts);
    expect(parts.map((part) => part.body.length)).toEqual([4_000, 4_000, 4_000, 3_000]);
  });

  it('cuts a long line of words after a space', () => {
    const text = words(3_000);
    const parts = splitMarkdown(text, 1_000);
    expectValidSplit(text, 1_000, parts);
    for (const part of parts.slice(0, -1)) expect(part.body.endsWith(' ')).toBe(true);
  });

  it.each([
    ['emoji (surrogate pairs)', '😀'],
    ['a family (ZWJ sequence)', '👨‍👩‍👧‍👦'],
    ['a flag', '🇩🇪'],
    ['a skin-toned thumb', '👍🏽'],
    ['an accent as a combining mark', 'e\u0301'],
    ['CJK', '漢'],
  ])('never splits %s', (_name, grapheme) => {
    const text = grapheme.repeat(Math.ceil(3_000 / grapheme.length));
    const parts = splitMarkdown(text, 999);
    expectValidSplit(text, 999, parts);
    for (const part of parts) expect(part.body.split(grapheme).join('')).toBe('');
  });

  it('returns a part of only whitespace only for a run longer than half a part', () => {
    const text = `start${' '.repeat(300)}\n${'\n'.repeat(300)}end`;
    const parts = splitMarkdown(text, 150);
    expectValidSplit(text, 150, parts, true);
    expect(parts[0]?.body.length).toBe(150);
    expect(parts.at(-1)?.body.endsWith('end')).toBe(true);
    const short = `start${' '.repeat(60)}\n\n${'w '.repeat(60)}`;
    expectValidSplit(short, 150, splitMarkdown(short, 150));
  });

  it('obeys its rules on mixed random documents', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pieces = [
      () => words(Math.floor(random() * 80)),
      () => '\n\n',
      () => '\n',
      () =>
        `\n\`\`\`ts\n${Array.from({ length: Math.floor(random() * 60) }, (_, i) => `let v${i} = ${i};`).join('\n')}\n\`\`\`\n`,
      () => '😀👨‍👩‍👧'.repeat(Math.floor(random() * 20)),
      () => 'q'.repeat(Math.floor(random() * 700)),
      () => '- item\n- item two\n',
    ];
    for (let round = 0; round < 40; round += 1) {
      const text = Array.from(
        { length: 60 },
        () => pieces[Math.floor(random() * pieces.length)]?.() ?? '',
      ).join('');
      if (!/\S/.test(text)) continue;
      const max = 120 + Math.floor(random() * 900);
      expectValidSplit(text, max, splitMarkdown(text, max));
    }
  });

  it('refuses a limit too small for a fence line', () => {
    expect(() => splitMarkdown('text', 50)).toThrow(RangeError);
  });
});
