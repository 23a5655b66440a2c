import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { webClient } from './standin-fixture.js';

let standin: SlackStandin;

beforeEach(async () => {
  standin = await startSlackStandin();
});
afterEach(async () => {
  await standin.close();
});

describe('files via the Web client’s filesUploadV2', () => {
  it('stores name, title, channel, thread and the full content, and shows the share in the thread', async () => {
    const client = webClient(standin.apiUrl);
    const parent = standin.recordUserMessage({ channel: 'C1', user: 'UALICE', text: 'export all' });
    const content = JSON.stringify({ dashboards: [{ id: 1, title: 'ünïcode ✓' }] }, null, 2).repeat(500);
    const result = await client.filesUploadV2({
      channel_id: 'C1',
      thread_ts: parent.ts,
      initial_comment: 'Here is the export',
      filename: 'export.json',
      title: 'Export',
      content,
    });
    expect(result.ok).toBe(true);
    const [file] = standin.files('C1');
    expect(file).toMatchObject({ name: 'export.json', title: 'Export', channel: 'C1', thread_ts: parent.ts });
    expect(file?.text).toBe(content);
    expect(file?.content.length).toBe(Buffer.byteLength(content));
    const thread = standin.messages('C1', parent.ts);
    expect(thread[1]).toMatchObject({
      text: 'Here is the export',
      files: [{ name: 'export.json', title: 'Export' }],
    });
    expect(standin.calls.map((c) => c.method)).toEqual([
      'files.getUploadURLExternal',
      'files.completeUploadExternal',
    ]);
  });

  it('uploads several files in one share', async () => {
    const client = webClient(standin.apiUrl);
    await client.filesUploadV2({
      channel_id: 'C2',
      file_uploads: [
        { filename: 'a.txt', content: 'alpha' },
        { filename: 'b.bin', file: Buffer.from([0, 1, 2, 255]) },
      ],
    });
    const files = standin.files('C2');
    expect(files.map((f) => f.name).sort()).toEqual(['a.txt', 'b.bin']);
    expect(files.find((f) => f.name === 'b.bin')?.content).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(standin.messages('C2')).toHaveLength(1);
  });

  it('refuses to complete a file that was never announced', async () => {
    const client = webClient(standin.apiUrl);
    await expect(
      client.files.completeUploadExternal({ files: [{ id: 'FNOTHERE' }], channel_id: 'C1' }),
    ).rejects.toMatchObject({ data: { error: 'file_not_found' } });
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After, and the Web client waits and retries', async () => {
    const client = webClient(standin.apiUrl, { retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 10 } });
    const rateLimited: number[] = [];
    client.on(webApi.WebClientEvent.RATE_LIMITED, (sec: number) => rateLimited.push(sec));
    standin.rateLimitNext('chat.postMessage', 1);
    const started = Date.now();
    const result = await client.chat.postMessage({ channel: 'C1', text: 'after the wait' });
    expect(result.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(rateLimited).toEqual([1]);
    expect(standin.calls.map((c) => c.error ?? 'ok')).toEqual(['ratelimited', 'ok']);
    expect(standin.messages('C1').map((m) => m.text)).toEqual(['after the wait']);
  });

  it('sends the header on the raw response', async () => {
    standin.rateLimitNext('chat.update', 7, 2);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${standin.apiUrl}chat.update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
    }
    const third = await fetch(`${standin.apiUrl}chat.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}` },
    });
    expect(third.status).toBe(200);
  });
});
