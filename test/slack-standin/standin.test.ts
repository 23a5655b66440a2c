import { describe, expect, it } from 'vitest';
import { startSlackStandin, TEST_BOT_TOKEN, visibleText } from '../../dev/slack-standin/index.js';
import { slackError, useStandin, webClient } from './standin-fixture.js';

const ctx = useStandin();

async function rawCall(method: string, init: RequestInit): Promise<Record<string, unknown>> {
  const response = await fetch(`${ctx.standin.apiUrl}${method}`, { method: 'POST', ...init });
  return (await response.json()) as Record<string, unknown>;
}

describe('auth', () => {
  it('answers auth.test for the bot', async () => {
    const result = await ctx.client.auth.test();
    expect(result).toMatchObject({
      ok: true,
      user_id: 'UBOT',
      team_id: ctx.standin.teamId,
      is_enterprise_install: false,
    });
  });

  it("names the workspace's Enterprise Grid org when it has one", async () => {
    const grid = await startSlackStandin({ enterpriseId: 'E0ORG' });
    expect(await webClient(grid.apiUrl).auth.test()).toMatchObject({
      team_id: 'T0TEST',
      enterprise_id: 'E0ORG',
    });
    await grid.close();
    expect(await ctx.client.auth.test()).not.toHaveProperty('enterprise_id');
  });

  it('refuses a missing, a wrong and a wrong-kind token as Slack does', async () => {
    expect(await rawCall('auth.test', {})).toMatchObject({ ok: false, error: 'not_authed' });
    expect(await rawCall('auth.test', { headers: { authorization: 'Bearer nope' } })).toMatchObject({
      error: 'invalid_auth',
    });
    expect(await rawCall('auth.test', { headers: { authorization: 'Bearer xapp-test-app' } })).toMatchObject({
      error: 'not_allowed_token_type',
    });
    const strict = await startSlackStandin({ botToken: 'xoxb-test-only-this-one' });
    expect(await slackError(webClient(strict.apiUrl).auth.test())).toBe('invalid_auth');
    await strict.close();
  });

  it('takes JSON bodies too, and answers unknown_method for the rest', async () => {
    const posted = await rawCall('chat.postMessage', {
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C1',
        text: 'json body',
        blocks: [{ type: 'markdown', text: '**hi**' }],
      }),
    });
    expect(posted).toMatchObject({ ok: true, channel: 'C1' });
    expect(visibleText(ctx.standin.messages('C1')[0] ?? {})).toBe('**hi**');
    expect(await slackError(ctx.client.apiCall('nope.nothing'))).toBe('unknown_method');
  });
});

describe('chat.postMessage', () => {
  it('stores messages with unique, increasing ts and logs calls without the token', async () => {
    const tss: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await ctx.client.chat.postMessage({ channel: 'C1', text: `m${i}` });
      tss.push(r.ts ?? '');
    }
    expect(tss.every((ts) => /^\d{10}\.\d{6}$/.test(ts))).toBe(true);
    expect(new Set(tss).size).toBe(20);
    expect([...tss].sort()).toEqual(tss);
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(tss.map((_, i) => `m${i}`));
    expect(ctx.standin.callCount('chat.postMessage')).toBe(20);
    expect(JSON.stringify(ctx.standin.calls)).not.toContain(TEST_BOT_TOKEN);
  });

  it.each([
    ['text over 40,000 chars', { text: 'x'.repeat(40_001) }, 'msg_too_long'],
    [
      '51 blocks',
      { text: 't', blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) },
      'invalid_blocks',
    ],
    [
      'a section over 3,000 chars',
      { text: 't', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(3001) } }] },
      'invalid_blocks',
    ],
    [
      'markdown blocks over 12,000 chars in total',
      { text: 't', blocks: [6001, 6000].map((n) => ({ type: 'markdown', text: 'z'.repeat(n) })) },
      'invalid_blocks',
    ],
    ['neither text nor blocks', {}, 'no_text'],
    ['blocks that are not JSON', { text: 't', blocks: 'not json' }, 'invalid_blocks_format'],
  ])('refuses %s', async (_name, args, error) => {
    expect(await slackError(ctx.client.chat.postMessage({ channel: 'C1', ...args } as never))).toBe(error);
    expect(ctx.standin.allMessages()).toEqual([]);
  });

  it('accepts content right at the limits', async () => {
    await ctx.client.chat.postMessage({ channel: 'C1', text: 'x'.repeat(40_000) });
    await ctx.client.chat.postMessage({
      channel: 'C1',
      text: 'fallback',
      blocks: [
        ...[6000, 6000].map((n) => ({ type: 'markdown', text: 'z'.repeat(n) })),
        { type: 'section', text: { type: 'mrkdwn', text: 'y'.repeat(3000) } },
        ...Array.from({ length: 47 }, () => ({ type: 'divider' })),
      ],
    });
    expect(ctx.standin.messages('C1')).toHaveLength(2);
  });

  it('explains invalid_blocks in response_metadata.messages', async () => {
    const result = await rawCall('chat.postMessage', {
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C1',
        blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })),
      }),
    });
    expect(result).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect((result.response_metadata as { messages: string[] }).messages[0]).toMatch(/^\[ERROR\] .*50/);
  });

  it('answers not_in_channel and channel_not_found for configured channels', async () => {
    ctx.standin.setNotInChannel('CPRIVATE');
    ctx.standin.setChannelMissing('CGONE');
    expect(await slackError(ctx.client.chat.postMessage({ channel: 'CPRIVATE', text: 'x' }))).toBe(
      'not_in_channel',
    );
    expect(await slackError(ctx.client.chat.postMessage({ channel: 'CGONE', text: 'x' }))).toBe(
      'channel_not_found',
    );
  });

  it('answers an injected failure once', async () => {
    ctx.standin.failNext('chat.postMessage', 'fatal_error');
    expect(await slackError(ctx.client.chat.postMessage({ channel: 'C1', text: 'a' }))).toBe('fatal_error');
    await ctx.client.chat.postMessage({ channel: 'C1', text: 'b' });
    expect(ctx.standin.calls.map((c) => c.error ?? 'ok')).toEqual(['fatal_error', 'ok']);
  });

  it('carries out a call it leaves unanswered, once', async () => {
    const send = (text: string, signal?: AbortSignal) =>
      fetch(`${ctx.standin.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C1', text }),
        signal,
      });
    ctx.standin.leaveUnansweredNext('chat.postMessage');
    await expect(send('accepted, never answered', AbortSignal.timeout(300))).rejects.toThrow();
    expect((await send('answered')).status).toBe(200);
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['accepted, never answered', 'answered']);
    expect(ctx.standin.calls.map((c) => c.error ?? 'ok')).toEqual(['unanswered', 'ok']);
  });

  it('carries out a held call at once and answers it only when released', async () => {
    const release = ctx.standin.holdAnswerNext('chat.postMessage');
    let answered = false;
    const held = ctx.client.chat
      .postMessage({ channel: 'C1', text: 'posted, answer held' })
      .then((result) => {
        answered = true;
        return result;
      });
    await ctx.standin.waitFor(() => ctx.standin.messages('C1').length === 1, { description: 'the post' });
    expect(answered).toBe(false);
    release();
    expect((await held).ok).toBe(true);
    await ctx.client.chat.postMessage({ channel: 'C1', text: 'not held' });
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['posted, answer held', 'not held']);
  });

  it('holds a lasting outage of one method or all, until it is cleared', async () => {
    const send = (text: string) =>
      fetch(`${ctx.standin.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C1', text }),
      });
    ctx.standin.setOutage('chat.postMessage', { status: 500 });
    expect((await send('a')).status).toBe(500);
    expect((await send('b')).status).toBe(500);
    ctx.standin.setOutage('chat.postMessage', undefined);
    ctx.standin.setOutage('*', { drop: true });
    await expect(send('c')).rejects.toThrow();
    ctx.standin.setOutage('*', undefined);
    expect((await send('d')).status).toBe(200);
    expect(ctx.standin.calls.map((c) => c.error ?? 'ok')).toEqual([
      'http_500',
      'http_500',
      'connection_dropped',
      'ok',
    ]);
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['d']);
  });
});

describe('threads, updates and deletes', () => {
  it('keeps a thread in order with metadata, edits and without deleted replies', async () => {
    const parent = ctx.standin.recordUserMessage({ channel: 'C1', user: 'UALICE', text: 'question' });
    const metadata = { event_type: 'agent_answer', event_payload: { turn_id: 't-1' } };
    const first = await ctx.client.chat.postMessage({
      channel: 'C1',
      thread_ts: parent.ts,
      text: 'working…',
    });
    const answer = await ctx.client.chat.postMessage({
      channel: 'C1',
      thread_ts: parent.ts,
      text: 'answer',
      metadata,
    });
    const gone = await ctx.client.chat.postMessage({ channel: 'C1', thread_ts: parent.ts, text: 'oops' });
    await ctx.client.chat.update({ channel: 'C1', ts: first.ts ?? '', text: 'done', blocks: [] });
    await ctx.client.chat.delete({ channel: 'C1', ts: gone.ts ?? '' });

    const thread = ctx.standin.messages('C1', parent.ts);
    expect(thread.map((m) => m.text)).toEqual(['question', 'done', 'answer']);
    expect(thread[1]?.edited?.user).toBe('UBOT');
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['question']);

    const replies = await ctx.client.conversations.replies({
      channel: 'C1',
      ts: parent.ts,
      include_all_metadata: true,
    });
    expect(replies.messages?.map((m) => m.text)).toEqual(['question', 'done', 'answer']);
    expect(replies.messages?.[0]).toMatchObject({ reply_count: 2, thread_ts: parent.ts });
    expect(replies.messages?.[2]?.metadata).toEqual(metadata);
    expect(answer.message?.metadata).toEqual(metadata);
  });

  it('pages conversations.replies with a cursor', async () => {
    const parent = ctx.standin.recordUserMessage({ channel: 'C1', user: 'UBOB', text: 'p' });
    for (const text of ['a', 'b', 'c'])
      await ctx.client.chat.postMessage({ channel: 'C1', thread_ts: parent.ts, text });
    const first = await ctx.client.conversations.replies({ channel: 'C1', ts: parent.ts, limit: 2 });
    expect(first.has_more).toBe(true);
    const next = await ctx.client.conversations.replies({
      channel: 'C1',
      ts: parent.ts,
      limit: 2,
      cursor: first.response_metadata?.next_cursor ?? '',
    });
    expect([...(first.messages ?? []), ...(next.messages ?? [])].map((m) => m.text)).toEqual([
      'p',
      'a',
      'b',
      'c',
    ]);
  });

  it("answers Slack's errors for unknown threads and messages and for others' messages", async () => {
    const theirs = ctx.standin.recordUserMessage({ channel: 'C1', user: 'UALICE', text: 'mine' });
    expect(await slackError(ctx.client.conversations.replies({ channel: 'C1', ts: '1.000001' }))).toBe(
      'thread_not_found',
    );
    expect(await slackError(ctx.client.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(ctx.client.chat.delete({ channel: 'C1', ts: '1.000001' }))).toBe(
      'message_not_found',
    );
    expect(await slackError(ctx.client.chat.update({ channel: 'C1', ts: theirs.ts, text: 'x' }))).toBe(
      'cant_update_message',
    );
    const mine = await ctx.client.chat.postMessage({ channel: 'C1', text: 'short' });
    expect(
      await slackError(
        ctx.client.chat.update({ channel: 'C1', ts: mine.ts ?? '', text: 'x'.repeat(40_001) }),
      ),
    ).toBe('msg_too_long');
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['mine', 'short']);
  });

  it('shows broadcast replies in the channel too', async () => {
    const parent = ctx.standin.recordUserMessage({ channel: 'C1', user: 'UALICE', text: 'p' });
    await ctx.client.chat.postMessage({ channel: 'C1', thread_ts: parent.ts, text: 'quiet' });
    await ctx.client.chat.postMessage({
      channel: 'C1',
      thread_ts: parent.ts,
      text: 'loud',
      reply_broadcast: true,
    });
    expect(ctx.standin.messages('C1').map((m) => m.text)).toEqual(['p', 'loud']);
  });
});
