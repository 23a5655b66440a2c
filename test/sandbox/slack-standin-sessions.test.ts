import { describe, expect, it } from 'vitest';
import { slackError, useStandin } from '../slack-standin/standin-fixture.js';

const ctx = useStandin();
const thread = { channel_id: 'C0GENERAL', thread_ts: '1700000000.000100' };

describe('agents.sessions.* (strict about their arguments, recorded for tests)', () => {
  it('creates a session with its title on processing, keeps the title on later calls, renames it', async () => {
    const sessions = ctx.client.agents.sessions;
    await sessions.setStatus({ ...thread, status: 'processing', title: 'Why is checkout slow?' });
    await sessions.setStatus({ ...thread, status: 'active', title: 'ignored: the session exists' });
    expect(ctx.standin.agentSessions.session('C0GENERAL', thread.thread_ts)).toEqual({
      status: 'active',
      title: 'Why is checkout slow?',
    });
    await sessions.rename({ ...thread, title: 'Checkout latency' });
    expect(ctx.standin.agentSessions.session('C0GENERAL', thread.thread_ts)?.title).toBe('Checkout latency');
    expect(ctx.standin.agentSessions.callsIn('C0GENERAL', thread.thread_ts).map((c) => c.method)).toEqual([
      'agents.sessions.setStatus',
      'agents.sessions.setStatus',
      'agents.sessions.rename',
    ]);
  });

  it.each([
    ['an unknown status', { ...thread, status: 'thinking' }, 'invalid_arguments'],
    ['no status', { ...thread }, 'invalid_arguments'],
    [
      'a title over 200 characters',
      { ...thread, status: 'processing', title: 'x'.repeat(201) },
      'invalid_arguments',
    ],
    ['no channel', { thread_ts: thread.thread_ts, status: 'processing' }, 'channel_not_found'],
    ['no thread', { channel_id: 'C0GENERAL', status: 'processing' }, 'invalid_thread_ts'],
  ])('setStatus refuses %s', async (_name, args, error) => {
    expect(await slackError(ctx.client.apiCall('agents.sessions.setStatus', args))).toBe(error);
  });

  it.each([
    ['an empty title', { ...thread, title: '' }, 'invalid_arguments'],
    ['a title over 200 characters', { ...thread, title: 'y'.repeat(201) }, 'invalid_arguments'],
    ['a thread without a session', { ...thread, title: 'Fine title' }, 'session_not_found'],
  ])('rename refuses %s', async (_name, args, error) => {
    expect(await slackError(ctx.client.apiCall('agents.sessions.rename', args))).toBe(error);
  });

  it('refuses both methods while the workspace is set to refuse them, and recovers', async () => {
    ctx.standin.agentSessions.refuse('unknown_method');
    expect(await slackError(ctx.client.agents.sessions.setStatus({ ...thread, status: 'processing' }))).toBe(
      'unknown_method',
    );
    expect(await slackError(ctx.client.agents.sessions.rename({ ...thread, title: 'T' }))).toBe(
      'unknown_method',
    );
    ctx.standin.agentSessions.refuse(false);
    await ctx.client.agents.sessions.setStatus({ ...thread, status: 'processing' });
    expect(ctx.standin.agentSessions.showsStop('C0GENERAL', thread.thread_ts)).toBe(true);
  });
});
