import sinon from 'sinon';
import { afterEach, describe, expect, it } from 'vitest';
import { slackError, useStandin } from './standin-fixture.js';

const ctx = useStandin();

/** The error Slack answers, or undefined when the call succeeds. */
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error) => slackError(Promise.reject(error)),
  );

const feedbackButtons = (overrides: Record<string, unknown> = {}) => ({
  type: 'feedback_buttons',
  action_id: 'fb',
  positive_button: {
    text: { type: 'plain_text', text: '👍' },
    value: 'positive',
    accessibility_label: 'Good',
  },
  negative_button: {
    text: { type: 'plain_text', text: '👎' },
    value: 'negative',
    accessibility_label: 'Bad',
  },
  ...overrides,
});

const modal = { type: 'modal', title: { type: 'plain_text', text: 'Rate' }, blocks: [] };

describe('assistant.threads.setStatus as Slack enforces it', () => {
  const set = (args: Record<string, unknown>) =>
    slackError(ctx.client.apiCall('assistant.threads.setStatus', args));

  it('requires channel_id, thread_ts and status', async () => {
    expect(await set({ thread_ts: '1.1', status: 'x' })).toBe('channel_not_found');
    expect(await set({ channel_id: 'C1', status: 'x' })).toBe('invalid_thread_ts');
    expect(await set({ channel_id: 'C1', thread_ts: '1.1' })).toBe('invalid_arguments');
  });

  it('takes at most 10 loading messages and short texts', async () => {
    const base = { channel_id: 'C1', thread_ts: '1.1', status: 'is working' };
    expect(await set({ ...base, loading_messages: Array.from({ length: 11 }, (_, i) => `m${i}`) })).toBe(
      'invalid_arguments',
    );
    expect(await set({ ...base, status: 'x'.repeat(151) })).toBe('invalid_arguments');
    expect(await set({ ...base, loading_messages: ['y'.repeat(151)] })).toBe('invalid_arguments');
    await ctx.client.assistant.threads.setStatus({ ...base, loading_messages: Array(10).fill('ok') });
    expect(ctx.standin.threadStatus('C1', '1.1')).toBe('is working');
  });

  it('shows a status until the bot posts in the thread or clears it', async () => {
    await ctx.client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: '1.1', status: 'is busy' });
    expect(ctx.standin.threadStatus('C1', '1.1')).toBe('is busy');
    await ctx.client.chat.postMessage({ channel: 'C1', thread_ts: '1.1', text: 'answer' });
    expect(ctx.standin.threadStatus('C1', '1.1')).toBeUndefined();
    await ctx.client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: '1.1', status: 'again' });
    await ctx.client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: '1.1', status: '' });
    expect(ctx.standin.threadStatus('C1', '1.1')).toBeUndefined();
  });

  it('can be told to refuse the method, as a workspace without it does', async () => {
    ctx.standin.refuseThreadStatus('not_allowed_token_type');
    expect(await set({ channel_id: 'C1', thread_ts: '1.1', status: 'x' })).toBe('not_allowed_token_type');
    ctx.standin.refuseThreadStatus(false);
    await ctx.client.assistant.threads.setStatus({ channel_id: 'C1', thread_ts: '1.1', status: 'x' });
    expect(ctx.standin.threadStatus('C1', '1.1')).toBe('x');
  });
});

describe('assistant.threads.setTitle and setSuggestedPrompts', () => {
  it('sets a title and refuses one without its arguments', async () => {
    await ctx.client.assistant.threads.setTitle({
      channel_id: 'D1',
      thread_ts: '1.1',
      title: 'Errors today',
    });
    expect(ctx.standin.threadTitle('D1', '1.1')).toBe('Errors today');
    expect(
      await slackError(
        ctx.client.apiCall('assistant.threads.setTitle', { channel_id: 'D1', thread_ts: '1.1' }),
      ),
    ).toBe('invalid_arguments');
  });

  it('refuses more than 4 prompts or a prompt without its message', async () => {
    const call = (prompts: unknown) =>
      slackError(ctx.client.apiCall('assistant.threads.setSuggestedPrompts', { channel_id: 'D1', prompts }));
    expect(await call(Array(5).fill({ title: 't', message: 'm' }))).toBe('invalid_arguments');
    expect(await call([{ title: 't' }])).toBe('invalid_arguments');
  });
});

describe('views.open and its trigger_id', () => {
  let clock: sinon.SinonFakeTimers | undefined;
  afterEach(() => clock?.restore());

  it('opens a modal once per trigger_id', async () => {
    const trigger = ctx.standin.issueTriggerId();
    const opened = await ctx.client.views.open({ trigger_id: trigger, view: modal as never });
    expect(opened.ok).toBe(true);
    expect(ctx.standin.openedViews()).toHaveLength(1);
    expect(await slackError(ctx.client.views.open({ trigger_id: trigger, view: modal as never }))).toBe(
      'invalid_trigger_id',
    );
    expect(await slackError(ctx.client.views.open({ trigger_id: 'made.up', view: modal as never }))).toBe(
      'invalid_trigger_id',
    );
  });

  it('refuses a trigger_id older than 3 seconds', async () => {
    clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const trigger = ctx.standin.issueTriggerId();
    clock.tick(3_001);
    expect(await slackError(ctx.client.views.open({ trigger_id: trigger, view: modal as never }))).toBe(
      'expired_trigger_id',
    );
  });
});

describe('context_actions and feedback_buttons limits', () => {
  const post = (elements: unknown[]) =>
    outcome(
      ctx.client.chat.postMessage({
        channel: 'C1',
        text: 'answer',
        blocks: [{ type: 'context_actions', elements }] as never,
      }),
    );

  it('accepts feedback buttons and refuses what Slack refuses', async () => {
    expect(await post([feedbackButtons()])).toBeUndefined();
    expect(await post([])).toBe('invalid_blocks');
    expect(await post(Array(6).fill(feedbackButtons()))).toBe('invalid_blocks');
    expect(await post([feedbackButtons({ positive_button: undefined })])).toBe('invalid_blocks');
    expect(
      await post([
        feedbackButtons({
          negative_button: {
            text: { type: 'plain_text', text: '👎' },
            value: 'n',
            accessibility_label: 'x'.repeat(76),
          },
        }),
      ]),
    ).toBe('invalid_blocks');
    expect(await post([{ type: 'button', text: { type: 'plain_text', text: 'x' } }])).toBe('invalid_blocks');
  });
});
