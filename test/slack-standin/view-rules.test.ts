import { describe, expect, it } from 'vitest';
import {
  commandAckRefusal,
  messageBodyRefusal,
  responseActionRefusal,
  TEST_BOT_TOKEN,
  validateView,
} from '../../dev/slack-standin/index.js';
import { useStandin } from './standin-fixture.js';

/**
 * Views (views.*, response_action) and the answers outside the Web API (response_url, command acks):
 * each rule accepts the limit and refuses one over, answering as Slack's views methods do.
 */
const plain = (text: string) => ({ type: 'plain_text', text });
const section = { type: 'section', text: { type: 'mrkdwn', text: 'hi' } };
const modal = (over: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: plain('Form'),
  blocks: [section],
  ...over,
});
const input = {
  type: 'input',
  block_id: 'alias',
  label: plain('Alias'),
  element: { type: 'plain_text_input' },
};

describe('validateView', () => {
  it.each([
    [
      'modal title',
      modal({ title: plain('x'.repeat(24)) }),
      modal({ title: plain('x'.repeat(25)) }),
      '/view/title/text',
    ],
    [
      'submit',
      modal({ submit: plain('x'.repeat(24)) }),
      modal({ submit: plain('x'.repeat(25)) }),
      '/view/submit/text',
    ],
    [
      'close',
      modal({ close: plain('x'.repeat(24)) }),
      modal({ close: plain('x'.repeat(25)) }),
      '/view/close/text',
    ],
    [
      'blocks per view',
      modal({ blocks: Array(100).fill(section) }),
      modal({ blocks: Array(101).fill(section) }),
      '/view/blocks',
    ],
    [
      'private_metadata',
      modal({ private_metadata: 'x'.repeat(3_000) }),
      modal({ private_metadata: 'x'.repeat(3_001) }),
      '/view/private_metadata',
    ],
    [
      'a section in a view',
      modal({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3_000) } }] }),
      modal({ blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3_001) } }] }),
      '/view/blocks/0/text/text',
    ],
  ])('%s: accepts the limit, refuses one over with invalid_arguments', (_what, atLimit, over, pointer) => {
    expect(validateView(atLimit, ['modal'])).toMatchObject({ ok: true });
    const refused = validateView(over, ['modal']);
    expect(refused).toMatchObject({ ok: false, result: { ok: false, error: 'invalid_arguments' } });
    expect(JSON.stringify(refused)).toContain(`[json-pointer:${pointer}]`);
  });

  it('wants a submit button on a modal with inputs, and the right kind of view', () => {
    expect(validateView(modal({ blocks: [input] }), ['modal'])).toMatchObject({ ok: false });
    expect(validateView(modal({ blocks: [input], submit: plain('Save') }), ['modal'])).toMatchObject({
      ok: true,
    });
    expect(validateView(modal(), ['home'])).toMatchObject({ ok: false });
  });
});

describe('answers outside the Web API', () => {
  it('holds a response_url body and a command ack to chat.postMessage’s rules', () => {
    expect(messageBodyRefusal({ text: 'fine', response_type: 'ephemeral' })).toBeUndefined();
    expect(messageBodyRefusal({ text: 'use <agent-id>' })).toMatchObject({ error: 'invalid_arguments' });
    expect(messageBodyRefusal({ text: 'x', blocks: Array(51).fill(section) })).toMatchObject({
      error: 'invalid_blocks',
    });
    expect(messageBodyRefusal({ delete_original: true })).toBeUndefined();
    expect(commandAckRefusal('')).toBeUndefined();
    expect(commandAckRefusal(JSON.stringify({ text: 'Working on it…' }))).toBeUndefined();
    expect(commandAckRefusal(JSON.stringify({ text: 'a <b>' }))).toMatchObject({ ok: false });
  });

  it('accepts only the response_actions Slack knows, with valid views and errors on inputs', () => {
    const submitted = modal({ blocks: [input], submit: plain('Save') });
    const answer = (body: unknown) => responseActionRefusal(JSON.stringify(body), submitted);
    expect(responseActionRefusal('', submitted)).toBeUndefined();
    expect(answer({ response_action: 'clear' })).toBeUndefined();
    expect(answer({ response_action: 'errors', errors: { alias: 'Taken.' } })).toBeUndefined();
    expect(answer({ response_action: 'errors', errors: { nowhere: 'Taken.' } })).toMatchObject({ ok: false });
    expect(answer({ response_action: 'update', view: modal() })).toBeUndefined();
    expect(
      answer({ response_action: 'update', view: modal({ title: plain('x'.repeat(25)) }) }),
    ).toMatchObject({
      error: 'invalid_arguments',
    });
    expect(answer({ response_action: 'replace' })).toMatchObject({ error: 'invalid_arguments' });
  });
});

describe('the stand-in over HTTP', () => {
  const ctx = useStandin();
  const call = (method: string, body: unknown) =>
    fetch(`${ctx.standin.apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json() as Promise<Record<string, unknown>>);

  it('refuses a response_url body Slack would refuse with 400, and does not show it', async () => {
    const url = ctx.standin.responseUrl('r1');
    const post = (body: unknown) => fetch(url, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ text: 'ok &lt;alias&gt;' })).status).toBe(200);
    const refused = await post({
      text: 'x',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<alias>' } }],
    });
    expect(refused.status).toBe(400);
    expect(ctx.standin.responses('r1')).toHaveLength(1);
    expect(ctx.standin.refusals()).toMatchObject([{ surface: 'response_url', error: 'invalid_blocks' }]);
  });

  it('answers views.push and views.update, and refuses a broken view with messages', async () => {
    const opened = await call('views.open', { trigger_id: ctx.standin.issueTriggerId(), view: modal() });
    const id = (opened.view as { id: string }).id;
    expect(await call('views.update', { view_id: id, view: modal({ title: plain('Done') }) })).toMatchObject({
      ok: true,
    });
    expect(ctx.standin.openedViews()[0]?.view).toMatchObject({ title: { text: 'Done' } });
    expect(await call('views.update', { view_id: 'VNOPE', view: modal() })).toMatchObject({
      error: 'not_found',
    });
    const pushed = await call('views.push', {
      trigger_id: ctx.standin.issueTriggerId(),
      view: modal({ title: plain('x'.repeat(25)) }),
    });
    expect(pushed).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: [expect.stringContaining('/view/title/text')] },
    });
  });
});
