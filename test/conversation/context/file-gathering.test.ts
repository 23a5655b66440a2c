import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../../../src/conversation/context/context-ports.js';
import {
  createFileGathering,
  type FileRead,
  type FileReader,
  MAX_FILES_PER_TURN,
} from '../../../src/conversation/context/file-gathering.js';
import { silentLogger } from '../../../src/runtime/logger.js';

const url = (id: string) => `https://files.slack.com/files-pri/T1-${id}/download/f`;
const slackFile = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  mimetype: 'text/plain',
  size: 5,
  url_private_download: url(id),
  ...extra,
});

/** A reader with fixed answers per file id; it records what it was asked for. */
function fakeReader(answers: Record<string, FileRead | Error>) {
  const asked: string[] = [];
  const reader: FileReader = {
    async read(file) {
      asked.push(file.id);
      const answer = answers[file.id] ?? { ok: true, bytes: Buffer.from(`text of ${file.name}`) };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { reader, asked };
}

const gatherWith = (reader: FileReader, maxChars = 10_000) =>
  createFileGathering({ reader, logger: silentLogger, settings: { maxChars } });

const request = (files: unknown[]) => ({
  channel: 'C1',
  sourceTs: '2.0',
  files: files.map((f) => {
    const raw = f as ReturnType<typeof slackFile>;
    return {
      id: raw.id,
      name: raw.name,
      mimetype: raw.mimetype,
      size: raw.size,
      downloadUrl: raw.url_private_download,
    };
  }),
});

describe('file gathering', () => {
  it("reads the question's files first, then people's earlier files newest first, each once", async () => {
    const { reader, asked } = fakeReader({});
    const earlier: ThreadMessage[] = [
      { ts: '1.0', user: 'UBOB', files: [slackFile('F-OLD', 'old.log')] },
      { ts: '1.5', user: 'UBOB', files: [slackFile('F-NEW', 'new.log'), slackFile('F-Q', 'q.log')] },
      // Bots' and integrations' files are not people's: left out.
      { ts: '1.6', user: 'UDEPLOY', bot_id: 'B1', files: [slackFile('F-BOT', 'bot.log')] },
      { ts: '1.7', subtype: 'bot_message', files: [slackFile('F-HOOK', 'hook.log')] },
    ];
    const gathered = await gatherWith(reader).gather(request([slackFile('F-Q', 'q.log')]), earlier);
    expect(gathered?.report).toEqual({ sent: ['q.log', 'new.log', 'old.log'], notSent: [] });
    expect(asked.sort()).toEqual(['F-NEW', 'F-OLD', 'F-Q']);
    const text = gathered?.text ?? '';
    expect(text.indexOf('q.log')).toBeLessThan(text.indexOf('new.log'));
    expect(text.indexOf('new.log')).toBeLessThan(text.indexOf('old.log'));
  });

  it('names every file it did not send, with the reason, and never throws', async () => {
    const { reader, asked } = fakeReader({
      'F-FAIL': new Error('socket hang up'),
      'F-BIG': { ok: false, reason: 'too-big' },
      'F-NUL': { ok: true, bytes: Buffer.from([0x61, 0, 0x62]) },
    });
    const gathered = await gatherWith(reader).gather(
      request([
        slackFile('F-IMG', 'a.png', { mimetype: 'image/png' }),
        slackFile('F-ZIP', 'b.zip', { mimetype: 'application/zip' }),
        slackFile('F-FAIL', 'c.log'),
        slackFile('F-BIG', 'd.log'),
        slackFile('F-NUL', 'e.log'),
        slackFile('F-OK', 'f.log'),
      ]),
      [],
    );
    expect(gathered?.report).toEqual({
      sent: ['f.log'],
      notSent: [
        { name: 'a.png', reason: 'image' },
        { name: 'b.zip', reason: 'binary' },
        { name: 'c.log', reason: 'download-failed' },
        { name: 'd.log', reason: 'too-big' },
        { name: 'e.log', reason: 'binary' },
      ],
    });
    expect(asked).not.toContain('F-IMG');
    expect(asked).not.toContain('F-ZIP');
  });

  it(`reads at most ${MAX_FILES_PER_TURN} files; with FILE_CONTEXT_MAX_CHARS=0 none, and says so`, async () => {
    const many = Array.from({ length: MAX_FILES_PER_TURN + 2 }, (_, i) => slackFile(`F${i}`, `${i}.log`));
    const { reader, asked } = fakeReader({});
    const gathered = await gatherWith(reader).gather(request(many), []);
    expect(gathered?.report.sent).toHaveLength(MAX_FILES_PER_TURN);
    expect(gathered?.report.notSent).toEqual([
      { name: `${MAX_FILES_PER_TURN}.log`, reason: 'no-room' },
      { name: `${MAX_FILES_PER_TURN + 1}.log`, reason: 'no-room' },
    ]);
    expect(asked).toHaveLength(MAX_FILES_PER_TURN);

    const off = fakeReader({});
    const none = await gatherWith(off.reader, 0).gather(request([slackFile('F1', 'a.log')]), []);
    expect(none).toEqual({
      text: undefined,
      report: { sent: [], notSent: [{ name: 'a.log', reason: 'off' }] },
    });
    expect(off.asked).toEqual([]);
  });

  it('gives nothing when the turn saw no file', async () => {
    const { reader } = fakeReader({});
    expect(
      await gatherWith(reader).gather({ channel: 'C1', sourceTs: '2.0' }, [{ ts: '1.0', user: 'U1' }]),
    ).toBe(undefined);
  });
});
