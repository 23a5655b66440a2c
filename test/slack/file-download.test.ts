import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { sharedFilesOf } from '../../src/conversation/context/file-context.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { allowedFileOrigins, createSlackFileReader } from '../../src/slack/file-download.js';

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

  describe("Slack's own host when it misbehaves", () => {
    let slow: Server;
    let mode: 'hang' | 'sign-in' = 'hang';
    beforeEach(async () => {
      slow = createServer((_req, res) => {
        // Slack without files:read may answer its sign-in page with 200.
        if (mode === 'sign-in')
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>');
        // 'hang': never answers; the reader's bound must end the wait.
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    });

    const readFrom = (why: string[]) => {
      const { port } = slow.address() as AddressInfo;
      const logger = {
        ...silentLogger,
        warn: (fields: { why?: string }) => void why.push(String(fields.why)),
      };
      const reader = createSlackFileReader({
        apiUrl: `http://127.0.0.1:${port}/api/`,
        token: () => TEST_BOT_TOKEN,
        logger: logger as never,
        timeoutMs: 300,
      });
      const url = `http://127.0.0.1:${port}/files-pri/T0TEST-F1/download/a.log`;
      return reader.read({ id: 'F1', name: 'a.log', mimetype: 'text/plain', downloadUrl: url }, 1000);
    };

    it('gives up after its time bound', async () => {
      mode = 'hang';
      const why: string[] = [];
      const started = Date.now();
      expect(await readFrom(why)).toEqual({ ok: false, reason: 'download-failed' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(why).toEqual(['timeout']);
    });

    it('takes a sign-in page for what it is, not for the file', async () => {
      mode = 'sign-in';
      const why: string[] = [];
      expect(await readFrom(why)).toEqual({ ok: false, reason: 'download-failed' });
      expect(why).toEqual(['sign-in page']);
    });
  });
});
