import { describe, expect, it } from 'vitest';
import {
  buildFileContext,
  cutToFit,
  decodeText,
  FILE_DOWNLOAD_MAX_BYTES,
  FILES_QUOTED_LINE,
  fileVerdict,
  type SharedFile,
  safeFileName,
  sharedFilesOf,
} from '../../../src/conversation/context/file-context.js';

const url = 'https://files.slack.com/files-pri/T1-F1/download/x';
const file = (name: string, extra: Partial<SharedFile> = {}): SharedFile => ({
  id: `F-${name}`,
  name,
  downloadUrl: url,
  size: 10,
  ...extra,
});

describe('sharedFilesOf', () => {
  it("reads Slack's file objects, hides URLs of files Slack says to check, drops what has no id", () => {
    const files = sharedFilesOf({
      files: [
        {
          id: 'F1',
          name: 'a.log',
          mimetype: 'text/plain',
          filetype: 'text',
          size: 12,
          url_private_download: url,
        },
        { id: 'F2', title: 'Untitled', file_access: 'check_file_info', url_private_download: url },
        { name: 'no-id.txt' },
        'junk',
      ],
    });
    expect(files).toEqual([
      { id: 'F1', name: 'a.log', mimetype: 'text/plain', filetype: 'text', size: 12, downloadUrl: url },
      {
        id: 'F2',
        name: 'Untitled',
        mimetype: undefined,
        filetype: undefined,
        size: undefined,
        downloadUrl: undefined,
      },
    ]);
    expect(sharedFilesOf({})).toEqual([]);
  });
});

describe('fileVerdict', () => {
  it.each([
    ['app.log', {}, { kind: 'read' }],
    ['rows.CSV', { mimetype: 'application/octet-stream' }, { kind: 'read' }],
    ['events.ndjson', {}, { kind: 'read' }],
    ['config.yml', {}, { kind: 'read' }],
    ['Makefile', { mimetype: 'text/x-makefile' }, { kind: 'read' }],
    ['shot.png', { mimetype: 'image/png' }, { kind: 'skip', reason: 'image' }],
    // An image type wins over a text extension: Slack decided what it is.
    ['weird.txt', { mimetype: 'image/jpeg' }, { kind: 'skip', reason: 'image' }],
    ['report.pdf', { mimetype: 'application/pdf' }, { kind: 'skip', reason: 'binary' }],
    ['noextension', {}, { kind: 'skip', reason: 'binary' }],
    ['hidden.log', { downloadUrl: undefined }, { kind: 'skip', reason: 'not-readable' }],
    ['huge.log', { size: FILE_DOWNLOAD_MAX_BYTES + 1 }, { kind: 'skip', reason: 'too-big' }],
  ] as const)('%s %o → %o', (name, extra, verdict) => {
    expect(fileVerdict(file(name, extra))).toEqual(verdict);
  });
});

describe('decodeText', () => {
  it('takes UTF-8 (a BOM dropped), refuses NUL bytes and invalid UTF-8', () => {
    expect(decodeText(Buffer.from('\uFEFFhé llo', 'utf8'))).toBe('hé llo');
    expect(decodeText(Buffer.from([0x61, 0, 0x62]))).toBeUndefined();
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x61]))).toBeUndefined();
  });
});

describe('cutToFit and safeFileName', () => {
  it('keeps short text whole, else its start and end with a mark, exactly the room long', () => {
    expect(cutToFit('short', 100)).toBe('short');
    const text = `START${'x'.repeat(1000)}END`;
    const cut = cutToFit(text, 200);
    expect(cut).toHaveLength(200);
    expect(cut.startsWith('START')).toBe(true);
    expect(cut.endsWith('END')).toBe(true);
    expect(cut).toContain(`characters cut here`);
  });

  it('makes a name one harmless line', () => {
    expect(safeFileName('a\nb`c\u202Ed.log')).toBe('a b c d.log');
    expect(safeFileName('   ')).toBe('unnamed');
    expect(safeFileName('x'.repeat(300))).toHaveLength(120);
  });
});

describe('buildFileContext', () => {
  it('quotes each file under its name in a fence its text cannot close', () => {
    const built = buildFileContext(
      [
        { id: 'F1', name: 'a.log', text: 'one' },
        { id: 'F2', name: 'b.md', text: 'has ``` and ```` inside' },
      ],
      10_000,
    );
    expect(built.text).toBe(
      `${FILES_QUOTED_LINE}\nFile “a.log”:\n\`\`\`\none\n\`\`\`\nFile “b.md”:\n\`\`\`\`\`\nhas \`\`\` and \`\`\`\` inside\n\`\`\`\`\``,
    );
    expect(built.sent.map((f) => f.id)).toEqual(['F1', 'F2']);
    expect(built.noRoom).toEqual([]);
  });

  it('stays within the budget, shares it fairly, and says which file found no room', () => {
    const small = { id: 'S', name: 'small.txt', text: 's'.repeat(300) };
    const big1 = { id: 'B1', name: 'big1.log', text: 'a'.repeat(5000) };
    const big2 = { id: 'B2', name: 'big2.log', text: 'b'.repeat(5000) };
    const built = buildFileContext([big1, small, big2], 2000);
    expect(built.text?.length).toBeLessThanOrEqual(2000);
    expect(built.text).toContain('s'.repeat(300));
    // Both big files got a share, each cut and marked; the order of the files is kept.
    expect(built.sent.map((f) => f.id)).toEqual(['B1', 'S', 'B2']);
    expect(built.text?.match(/characters cut here/g)).toHaveLength(2);
    const tight = buildFileContext([big1, big2], FILES_QUOTED_LINE.length + 400);
    expect(tight.sent.map((f) => f.id)).toEqual(['B1']);
    expect(tight.noRoom.map((f) => f.id)).toEqual(['B2']);
    expect(tight.text?.length).toBeLessThanOrEqual(FILES_QUOTED_LINE.length + 400);
  });

  it('gives nothing for no files', () => {
    expect(buildFileContext([], 1000)).toEqual({ text: undefined, sent: [], noRoom: [] });
  });
});
