import { describe, expect, it } from 'vitest';
import { describeFiles } from '../../../src/slack/views/file-footer.js';

describe('describeFiles', () => {
  it('names the files sent and those not sent, each with its reason', () => {
    expect(
      describeFiles({
        sent: ['app.log', 'trace.json'],
        notSent: [
          { name: 'graph.png', reason: 'image' },
          { name: 'dump.zip', reason: 'binary' },
          { name: 'huge.log', reason: 'too-big' },
          { name: 'hidden.txt', reason: 'not-readable' },
          { name: 'flaky.txt', reason: 'download-failed' },
          { name: 'last.log', reason: 'no-room' },
        ],
      }),
    ).toEqual([
      ':paperclip: Sent to the agent: `app.log`, `trace.json`',
      ':paperclip: Not sent: `graph.png` (image), `dump.zip` (not a text file), `huge.log` (too big), `hidden.txt` (not readable by the bot), `flaky.txt` (download failed), `last.log` (no room left within FILE_CONTEXT_MAX_CHARS)',
    ]);
  });

  it('says nothing without files, and keeps names harmless and the list short', () => {
    expect(describeFiles(undefined)).toEqual([]);
    expect(describeFiles({ sent: [], notSent: [] })).toEqual([]);
    const [line] = describeFiles({ sent: ['<!channel> `x` & y.log'], notSent: [] });
    // No broadcast mention, no backtick to break out of the code span, the ampersand escaped.
    expect(line).not.toContain('<!channel>');
    expect(line).toMatch(/^:paperclip: Sent to the agent: `[^`<>]*channel x &amp; y\.log`$/);
    const many = describeFiles({ sent: Array.from({ length: 12 }, (_, i) => `${i}.log`), notSent: [] });
    expect(many[0]).toContain('and 4 more');
  });
});
