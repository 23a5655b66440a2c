import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedFilesOf } from '../../src/conversation/context/file-context.js';
import { silentLogger } from '../../src/logging.js';
import { allowedFileOrigins, createSlackFileReader } from '../../src/slack/file-download.js';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../src/slack-standin/index.js';

let standin: SlackStandin;
beforeEach(async () => {
  standin = await startSlackStandin({ botToken: TEST_BOT_TOKEN });
});
afterEach(async () => standin.close());

const readerWith = (token: string | undefined) =>
  createSlackFileReader({
    apiUrl: standin.apiUrl,
    token: () => token,
    logger: silentLogger,
    timeoutMs: 2000,
  });
const asShared = (file: Record<string, unknown>) => {
  const [shared] = sharedFilesOf({ files: [file] });
  return { ...shared, downloadUrl: shared?.downloadUrl as string } as Parameters<
    ReturnType<typeof readerWith>['read']
  >[0];
};

describe('the Slack file reader', () => {
  it('allows Slack’s file host and SLACK_API_URL’s origin only', () => {
    expect([...allowedFileOrigins('https://slack.com/api/')]).toEqual([
      'https://files.slack.com',
      'https://slack.com',
    ]);
  });

  it('reads a file with the bot token', async () => {
    const file = standin.shareFile({ name: 'a.log', content: 'line one' });
    const read = await readerWith(TEST_BOT_TOKEN).read(asShared(file), 1000);
    expect(read).toEqual({ ok: true, bytes: Buffer.from('line one') });
  });

  it('does not follow the redirect Slack answers a refused token with', async () => {
    const file = standin.shareFile({ name: 'a.log', content: 'line one' });
    expect(await readerWith('xoxb-wrong-not-real').read(asShared(file), 1000)).toEqual({
      ok: false,
      reason: 'download-failed',
    });
    expect(standin.fileDownloads()).toEqual([{ fileId: file.id, authorized: false, status: 302 }]);
  });

  it('stops past maxBytes (too big), and fails an error status without throwing', async () => {
    const file = standin.shareFile({ name: 'big.log', content: 'x'.repeat(5000) });
    expect(await readerWith(TEST_BOT_TOKEN).read(asShared(file), 1000)).toEqual({
      ok: false,
      reason: 'too-big',
    });
    standin.failFileDownloadNext(file.id, 500);
    expect(await readerWith(TEST_BOT_TOKEN).read(asShared(file), 10_000)).toEqual({
      ok: false,
      reason: 'download-failed',
    });
  });

  describe('another host', () => {
    let other: Server;
    const seen: string[] = [];
    beforeEach(async () => {
      other = createServer((req, res) => {
        seen.push(String(req.headers.authorization));
        res.end('data');
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => new Promise<void>((resolve) => other.close(() => resolve())));

    it('is never asked: the token goes to Slack only', async () => {
      const { port } = other.address() as AddressInfo;
      const file = standin.shareFile({
        name: 'a.txt',
        content: 'x',
        downloadUrl: `http://127.0.0.1:${port}/files-pri/T0TEST-F1/download/a.txt`,
      });
      expect(await readerWith(TEST_BOT_TOKEN).read(asShared(file), 1000)).toEqual({
        ok: false,
        reason: 'download-failed',
      });
      expect(seen).toEqual([]);
    });
  });
});
