import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';

/** views.publish on the stand-in, through its HTTP API as the Web client sends it (JSON). */
describe('the stand-in: views.publish', () => {
  let standin: SlackStandin;
  beforeEach(async () => {
    standin = await startSlackStandin();
  });
  afterEach(async () => standin.close());

  async function publish(body: Record<string, unknown>) {
    const response = await fetch(`${standin.apiUrl}views.publish`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { ok: boolean; error?: string; view?: { id?: string; type?: string } };
  }

  const section = { type: 'section', text: { type: 'mrkdwn', text: 'hi' } };

  it('records what each person’s Home tab shows, and how many publishes', async () => {
    const first = await publish({ user_id: 'UALICE', view: { type: 'home', blocks: [section] } });
    expect(first).toMatchObject({ ok: true, view: { type: 'home' } });
    await publish({ user_id: 'UALICE', view: { type: 'home', blocks: [section, { type: 'divider' }] } });
    expect(standin.homeOf('UALICE')?.blocks).toEqual([section, { type: 'divider' }]);
    expect(standin.homePublishes('UALICE')).toBe(2);
    expect(standin.homeOf('UBOB')).toBeUndefined();
  });

  it.each([
    ['no user_id', { view: { type: 'home', blocks: [section] } }, 'invalid_arguments'],
    ['a modal', { user_id: 'UALICE', view: { type: 'modal', blocks: [section] } }, 'invalid_arguments'],
    ['no blocks', { user_id: 'UALICE', view: { type: 'home', blocks: [] } }, 'invalid_arguments'],
    [
      '101 blocks',
      { user_id: 'UALICE', view: { type: 'home', blocks: Array.from({ length: 101 }, () => section) } },
      'invalid_arguments',
    ],
    [
      'a section over 3,000 characters',
      {
        user_id: 'UALICE',
        view: {
          type: 'home',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3_001) } }],
        },
      },
      // views.* answer a broken block with invalid_arguments (chat.* with invalid_blocks).
      'invalid_arguments',
    ],
  ])('refuses %s', async (_name, body, error) => {
    expect(await publish(body)).toMatchObject({ ok: false, error });
    expect(standin.homePublishes('UALICE')).toBe(0);
  });

  it('takes up to 100 blocks (a view, not a message)', async () => {
    const blocks = Array.from({ length: 100 }, () => section);
    expect(await publish({ user_id: 'UALICE', view: { type: 'home', blocks } })).toMatchObject({ ok: true });
  });

  it('checks task_card blocks in messages strictly', async () => {
    const post = (block: Record<string, unknown>) =>
      fetch(`${standin.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'C0GENERAL', text: 'x', blocks: [block] }),
      }).then((response) => response.json() as Promise<{ ok: boolean; error?: string }>);
    const card = { type: 'task_card', task_id: 't1', title: 'Done', status: 'complete' };
    expect(await post(card)).toMatchObject({ ok: true });
    expect(await post({ ...card, status: 'finished' })).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(await post({ ...card, task_id: undefined })).toMatchObject({ ok: false, error: 'invalid_blocks' });
    expect(await post({ ...card, details: { type: 'section' } })).toMatchObject({
      ok: false,
      error: 'invalid_blocks',
    });
  });
});
