import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackRefusedError, submitNewestForm, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { createPersonDriver } from '../../dev/slack-standin/person.js';
import { useStandin } from './standin-fixture.js';

/**
 * The person driver holds an app's HTTP answers to Slack's rules: a command ack and a
 * view_submission answer Slack would refuse make the call throw (so the end-to-end test that
 * caused it fails, naming the rule) and are kept in `refusals()`.
 */
const ctx = useStandin();
let app: Server;
let appUrl: string;
/** What the fake app answers every POST with. */
let answer: unknown;

beforeEach(async () => {
  app = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
    );
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

const endpoint = () => ({ appUrl, signingSecret: 'test-signing-secret-not-real' });
const plain = (text: string) => ({ type: 'plain_text', text });
const form = {
  type: 'modal',
  title: plain('Form'),
  submit: plain('Save'),
  blocks: [
    {
      type: 'input',
      block_id: 'note',
      label: plain('Note'),
      element: { type: 'plain_text_input', action_id: 'note_input' },
    },
  ],
};

async function openForm() {
  const response = await fetch(`${ctx.standin.apiUrl}views.open`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ trigger_id: ctx.standin.issueTriggerId(), view: form }),
  });
  expect(await response.json()).toMatchObject({ ok: true });
}

describe('answers an app gives over HTTP', () => {
  it('takes a valid view_submission answer and refuses one Slack would refuse', async () => {
    await openForm();
    answer = { response_action: 'errors', errors: { note: 'Too short.' } };
    expect((await submitNewestForm(ctx.standin, endpoint(), 'x')).status).toBe(200);
    answer = { response_action: 'update', view: { ...form, title: plain('A title far too long for Slack') } };
    await expect(submitNewestForm(ctx.standin, endpoint(), 'x')).rejects.toBeInstanceOf(SlackRefusedError);
    expect(ctx.standin.refusals()).toMatchObject([
      { surface: 'view_submission', error: 'invalid_arguments' },
    ]);
  });

  it('refuses a slash command ack with a raw placeholder', async () => {
    const person = createPersonDriver(ctx.standin, endpoint(), { user: 'UALICE', channel: 'C0GENERAL' });
    answer = { response_type: 'ephemeral', text: 'Use `/agent channel use &lt;agent-id&gt;`' };
    expect((await person.command('channel')).status).toBe(200);
    answer = { response_type: 'ephemeral', text: 'Use `/agent channel use <agent-id>`' };
    await expect(person.command('channel')).rejects.toThrow(/command_ack answer: invalid_arguments/);
  });
});
