import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { webClient } from './standin-fixture.js';

let standin: SlackStandin;
beforeEach(async () => {
  standin = await startSlackStandin({ botToken: TEST_BOT_TOKEN });
});
afterEach(async () => standin.close());

const download = (url: string, token?: string) =>
  fetch(url, { redirect: 'manual', headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("people's shared files", () => {
  it("are Slack's file objects on a file_share message, in the thread as conversations.replies reads it", async () => {
    const file = standin.shareFile({ user: 'UBOB', name: 'App Errors.log', content: 'boom' });
    expect(file).toMatchObject({
      name: 'App Errors.log',
      mimetype: 'text/plain',
      filetype: 'log',
      size: 4,
      user: 'UBOB',
      mode: 'hosted',
      file_access: 'visible',
      url_private_download: `${standin.url}/files-pri/T0TEST-${file.id}/download/app_errors.log`,
    });
    const root = standin.recordUserMessage({ channel: 'C1', user: 'UBOB', text: 'see', files: [file] });
    const replies = await webClient(standin.apiUrl).conversations.replies({ channel: 'C1', ts: root.ts });
    expect(replies.messages?.[0]).toMatchObject({
      subtype: 'file_share',
      upload: false,
      files: [{ id: file.id }],
    });
  });

  it('types a file by its extension, else by its content: plain text whatever the name, binary otherwise', () => {
    const typed = (name: string, content: string | Buffer) => {
      const { mimetype, filetype } = standin.shareFile({ name, content });
      return { mimetype, filetype };
    };
    expect(typed('nginx.conf', 'worker_processes 4;')).toEqual({ mimetype: 'text/plain', filetype: 'text' });
    expect(typed('Dockerfile', 'FROM node:20')).toEqual({ mimetype: 'text/plain', filetype: 'text' });
    expect(typed('core.dump', Buffer.from([0x7f, 0x45, 0, 0x46]))).toEqual({
      mimetype: 'application/octet-stream',
      filetype: 'dump',
    });
    expect(typed('graph.png', 'not really a png')).toEqual({ mimetype: 'image/png', filetype: 'png' });
  });

  it('download with the bot token; without it (or with another) Slack redirects to its sign-in page', async () => {
    const file = standin.shareFile({ name: 'a.txt', content: 'hello' });
    const url = file.url_private_download as string;
    const ok = await download(url, TEST_BOT_TOKEN);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('hello');
    for (const token of [undefined, 'xoxb-some-other-token-not-real']) {
      const refused = await download(url, token);
      expect(refused.status).toBe(302);
      expect(refused.headers.get('location')).toMatch(/^\/\?redirect=/);
    }
    expect(standin.fileDownloads().map((d) => [d.authorized, d.status])).toEqual([
      [true, 200],
      [false, 302],
      [false, 302],
    ]);
  });

  it('fail on demand, then serve again', async () => {
    const file = standin.shareFile({ name: 'b.log', content: 'x' });
    standin.failFileDownloadNext(file.id, 503);
    expect((await download(file.url_private_download as string, TEST_BOT_TOKEN)).status).toBe(503);
    expect((await download(file.url_private_download as string, TEST_BOT_TOKEN)).status).toBe(200);
  });
});
