import { describe, expect, it } from 'vitest';
import {
  type AnswerMessage,
  renderAnswer,
  renderPlainAnswer,
} from '../../../src/slack/views/render-answer.js';

/** Slack's limits for one message: https://docs.slack.dev/reference/block-kit/blocks/markdown-block */
function expectWithinSlackLimits(message: AnswerMessage, maxMarkdownChars = 11_000): void {
  expect(message.text.length).toBeGreaterThan(0);
  expect(message.text.length).toBeLessThanOrEqual(3_000);
  expect(message.blocks.length).toBeGreaterThan(0);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  const [markdown, ...footer] = message.blocks;
  if (!markdown) throw new Error('the rich rendering has a markdown block');
  expect(markdown.text.length).toBeLessThanOrEqual(Math.min(12_000, maxMarkdownChars));
  expect(markdown.type).toBe('markdown');
  expect(markdown.text).toMatch(/\S/);
  for (const block of footer) expect(block.type).toBe('context');
}

/** Content with fence lines and line breaks removed: what must survive the split. */
const content = (text: string) => text.replace(/^[ \t]*(```|~~~).*$/gm, '').replace(/\s+/g, '');

function sixtyThousandCharAnswer(): string {
  const paragraph = (i: number) =>
    `### Finding ${i}\n\n${'The **ingest** pipeline dropped logs 🚨 at 02:00. '.repeat(12)}`;
  const code = `\`\`\`json\n${Array.from({ length: 400 }, (_, i) => `{"line": ${i}, "msg": "<@U0${i}> ok"}`).join('\n')}\n\`\`\``;
  const longLine = 'x'.repeat(15_000);
  const parts = [
    ...Array.from({ length: 20 }, (_, i) => paragraph(i)),
    code,
    longLine,
    ...Array.from({ length: 20 }, (_, i) => paragraph(i + 20)),
  ];
  const text = parts.join('\n\n');
  return text + 'y'.repeat(60_000 - text.length);
}

describe('renderAnswer', () => {
  it('renders a short answer as one message with one markdown block', () => {
    const rendered = renderAnswer('**Done.** The service is healthy.');
    expect(rendered).toEqual({
      messages: [
        {
          text: 'Done. The service is healthy.',
          blocks: [{ type: 'markdown', text: '**Done.** The service is healthy.' }],
        },
      ],
    });
  });

  it.each([
    ['an empty answer', ''],
    ['a blank answer', ' \n\n\t '],
  ])('says so for %s (Slack refuses an empty block)', (_name, answer) => {
    const [message] = renderAnswer(answer).messages;
    expect(message?.blocks[0]?.text).toMatch(/without an answer/);
    expect(message?.text).toMatch(/without an answer/);
  });

  it('neutralises a broadcast mention in agent output, in the block and the fallback', () => {
    const rendered = renderAnswer('Log says: <!channel> deploy failed, ping <@U0ADMIN|admin>');
    const [message] = rendered.messages;
    for (const text of [message?.text, message?.blocks[0]?.text]) {
      expect(text).not.toMatch(/<!|<@/);
      expect(text?.replace(/\u2060/g, '')).toContain('@channel deploy failed, ping @admin');
    }
  });

  it('re-neutralises the fallback when stripping code marks joins a sequence back up', () => {
    const [message] = renderAnswer('<`!channel`>').messages;
    expect(message?.text).not.toContain('<!channel>');
  });

  it('escapes &, < and > in the fallback text, as Slack asks, keeping the markdown block as written', () => {
    const [message] = renderAnswer('Latency on <checkout> is > 500 ms & rising; `a<b>c`').messages;
    expect(message?.text).toBe('Latency on &lt;checkout&gt; is &gt; 500 ms &amp; rising; a&lt;b&gt;c');
    expect(message?.blocks[0]?.text).toContain('<checkout> is > 500 ms & rising');
  });

  it('keeps an escaped fallback within its limit, never cutting an escape in half', () => {
    const [message] = renderAnswer('<'.repeat(5000)).messages;
    expect(message?.text.length).toBeLessThanOrEqual(3000);
    expect(message?.text).toMatch(/^(&lt;)+…$/);
  });

  it('puts the footer under the last message only, as a context block', () => {
    const rendered = renderAnswer(`${'a'.repeat(900)}\n\n${'b'.repeat(900)}`, {
      maxMarkdownChars: 1000,
      footer: ['files were not sent'],
    });
    expect(rendered.messages).toHaveLength(2);
    expect(rendered.messages[0]?.blocks).toHaveLength(1);
    expect(rendered.messages[1]?.blocks[1]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'files were not sent' }],
    });
  });

  it('never leaves the fallback empty when the answer is only markup', () => {
    expect(renderAnswer('```\n```').messages[0]?.text).toBe('Agent answer');
  });

  it('strips Markdown for the fallback', () => {
    const markdown = '# Title\n\n- **bold** and `code`\n- [link](https://x.example)\n\n```sh\nls -la\n```';
    const [message] = renderAnswer(markdown).messages;
    expect(message?.text).toBe('Title\n\n• bold and code\n• link (x.example)\n\nls -la');
  });

  describe('shows where every link goes', () => {
    // [name, answer, what the markdown block holds, what the fallback shows]
    const links = [
      [
        'a Markdown link',
        'Read [docs](https://evil.example/?q=secret) now.',
        '[docs (evil.example)](https://evil.example/?q=secret)',
        'Read docs (evil.example) now.',
      ],
      [
        'a Slack link',
        'Read <https://evil.example/?q=secret|docs> now.',
        '[docs (evil.example)](https://evil.example/?q=secret)',
        'Read docs (evil.example) now.',
      ],
      [
        'a reference link',
        'Read [docs][1] now.\n\n[1]: https://evil.example/?q=secret',
        '\\[1]: https://evil.example/?q=secret',
        '[1]: https://evil.example/?q=secret',
      ],
    ] as const;

    it.each(links)('%s, in the markdown block and the fallback', (_name, answer, block, fallback) => {
      const [message] = renderAnswer(answer).messages;
      expect(message?.blocks[0]?.text).toContain(block);
      expect(message?.text).toContain(fallback);
    });

    it.each(links)('%s, in the plain rendering', (_name, answer) => {
      const [message] = renderPlainAnswer(answer).messages;
      expect(message?.text).toContain('evil.example');
      expect(message?.text).not.toMatch(/\[docs\]\(/);
    });

    it('in every part of a long answer, the host inside the link it belongs to', () => {
      const answer = Array.from(
        { length: 400 },
        (_, i) => `Step ${i}: see [docs ${i}](https://x${i}.example/a).`,
      ).join(' ');
      const rendered = renderAnswer(answer, { maxMarkdownChars: 1_000 });
      expect(rendered.messages.length).toBeGreaterThan(10);
      const blocks = rendered.messages.map((message) => message.blocks[0]?.text ?? '');
      for (const [index, text] of blocks.entries()) {
        for (const link of text.matchAll(/\[docs (\d+)( \(x\d+\.example\))?\]/g)) {
          expect(link[2], `part ${index + 1}, link ${link[1]}`).toBe(` (x${link[1]}.example)`);
        }
      }
      expect(blocks.join('').match(/\]\(https:/g)).toHaveLength(400);
      // The file keeps the answer as the agent wrote it: a file shows addresses, not labels.
      expect(rendered.file).toBeUndefined();
    });
  });

  it('renders a 60,000-character answer within every Slack limit, losing nothing', () => {
    const answer = sixtyThousandCharAnswer();
    expect(answer.length).toBe(60_000);
    const rendered = renderAnswer(answer);
    expect(rendered.messages.length).toBeGreaterThanOrEqual(6);
    for (const message of rendered.messages) expectWithinSlackLimits(message);
    const blocks = rendered.messages.map((message) => message.blocks[0]?.text);
    const neutralisedAnswer = answer.replace(/<@(U0\d+)>/g, '<\u200B@$1>');
    expect(content(blocks.join(''))).toBe(content(neutralisedAnswer));
    expect(rendered.file).toEqual({ filename: 'answer.md', title: 'Full answer', content: answer });
  });

  it('marks each part in the fallback and ends a cut excerpt with an ellipsis', () => {
    const rendered = renderAnswer(sixtyThousandCharAnswer());
    const count = rendered.messages.length;
    rendered.messages.forEach((message, index) => {
      expect(message.text.endsWith(`(part ${index + 1}/${count})`)).toBe(true);
    });
    expect(rendered.messages[0]?.text).toMatch(/… \(part 1\/\d+\)$/);
  });

  it('reopens a code block that spans two messages', () => {
    const code = Array.from({ length: 200 }, (_, i) => `echo ${i}`).join('\n');
    const rendered = renderAnswer(`Steps:\n\n\`\`\`bash\n${code}\n\`\`\``, { maxMarkdownChars: 1_000 });
    expect(rendered.messages.length).toBeGreaterThan(1);
    for (const message of rendered.messages) expectWithinSlackLimits(message, 1_000);
    for (const message of rendered.messages.slice(1))
      expect(message.blocks[0]?.text.startsWith('```bash\n')).toBe(true);
    for (const message of rendered.messages) expect(message.blocks[0]?.text.endsWith('```')).toBe(true);
  });

  it.each([
    ['below the threshold', 999, false],
    ['at the threshold', 1_000, false],
    ['past the threshold', 1_001, true],
  ])('attaches the file only %s', (_name, length, hasFile) => {
    const rendered = renderAnswer('a'.repeat(length), { fileThresholdChars: 1_000 });
    expect(rendered.file !== undefined).toBe(hasFile);
  });

  it('ends only the last part with the feedback buttons, when asked for', () => {
    const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} ${'x'.repeat(500)}`).join('\n\n');
    const { messages } = renderAnswer(long, { maxMarkdownChars: 6_000, feedbackButtons: true });
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.slice(0, -1).map((message) => message.feedback)).toEqual(
      messages.slice(0, -1).map(() => undefined),
    );
    expect(messages.at(-1)?.feedback).toMatchObject({
      type: 'context_actions',
      elements: [{ type: 'feedback_buttons' }],
    });
    expect(renderAnswer('Short.').messages[0]?.feedback).toBeUndefined();
  });

  it('tags every message with the metadata and its part number', () => {
    const metadata = { event_type: 'agent_answer', event_payload: { turn_id: 't-1' } };
    const rendered = renderAnswer(`${'a'.repeat(900)}\n\n${'b'.repeat(900)}`, {
      maxMarkdownChars: 1_000,
      metadata,
    });
    expect(rendered.messages.map((message) => message.metadata)).toEqual([
      { event_type: 'agent_answer', event_payload: { turn_id: 't-1', part: 1, parts: 2 } },
      { event_type: 'agent_answer', event_payload: { turn_id: 't-1', part: 2, parts: 2 } },
    ]);
    expect(metadata.event_payload).toEqual({ turn_id: 't-1' });
  });

  it('drops a part that would hold only whitespace', () => {
    const rendered = renderAnswer(`top${' '.repeat(3_000)}\n${'\n'.repeat(3_000)}bottom`, {
      maxMarkdownChars: 1_000,
    });
    for (const message of rendered.messages) expectWithinSlackLimits(message, 1_000);
    expect(rendered.messages.at(-1)?.blocks[0]?.text).toContain('bottom');
  });
});

describe('renderAnswer with a note', () => {
  it('puts the note above the first part only, within the limits', () => {
    const note = ':hourglass: _Late answer — the agent took 42 min._';
    const rendered = renderAnswer(`${'word '.repeat(4_000)}`, { note, maxMarkdownChars: 11_000 });
    expect(rendered.messages.length).toBeGreaterThan(1);
    expect(rendered.messages[0]?.blocks[0]?.text.startsWith(`${note}\n\n`)).toBe(true);
    expect(rendered.messages[0]?.text).toContain('Late answer');
    expect(rendered.messages[1]?.blocks[0]?.text).not.toContain('Late answer');
    for (const message of rendered.messages) expectWithinSlackLimits(message, 12_000);
  });
});

describe('renderPlainAnswer (after Slack refused the rich rendering)', () => {
  it.each([
    ['a short answer', 'Plain **answer** with <!here>.', 1],
    ['a long answer', `${'A paragraph of text. '.repeat(40)}\n\n`.repeat(30), 8],
  ])('%s: text only, neutralised, parts under 4,000 characters', (_name, markdown, parts) => {
    const rendered = renderPlainAnswer(markdown, {
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
    expect(rendered.messages).toHaveLength(parts);
    for (const [index, message] of rendered.messages.entries()) {
      expect(message.blocks).toEqual([]);
      expect(message.text.length).toBeLessThanOrEqual(3_900);
      expect(message.text).not.toContain('<!here>');
      expect(message.metadata?.event_payload).toEqual({ turn_id: 't1', part: index + 1, parts });
    }
    expect(content(rendered.messages.map((m) => m.text).join(''))).toBe(
      content(markdown.replace('<!here>', '@\u2060here')),
    );
  });

  it('keeps the note and the file', () => {
    const rendered = renderPlainAnswer('x'.repeat(30_000), { note: 'Late.', fileThresholdChars: 20_000 });
    expect(rendered.messages[0]?.text.startsWith('Late.\n\n')).toBe(true);
    expect(rendered.file?.content).toHaveLength(30_000);
  });
});
