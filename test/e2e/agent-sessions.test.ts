import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { messageEvent } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * DESIGN "Agent sessions and Stop": each turn's thread is a Slack agent session — `processing`
 * (named after the question on a new session) while the run works, `active` once its outcome is
 * posted — with the step words on the text status in between. The stand-in records every call.
 */
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 50, answer });
const SESSION_METHODS = ['agents.sessions.setStatus', 'agents.sessions.rename'];

/** The thread's session calls, the text status calls and the answer, in the order Slack got them. */
function timeline(h: Harness, channel: string, threadTs: string): string[] {
  return h.slack.calls
    .filter((call) => call.ok && (call.args.channel_id ?? call.args.channel) === channel)
    .filter((call) => (call.args.thread_ts ?? '') === threadTs)
    .flatMap((call): string[] => {
      if (call.method === 'agents.sessions.setStatus')
        return [`session ${call.args.status}${call.args.title ? ` "${call.args.title}"` : ''}`];
      if (call.method === 'agents.sessions.rename') return [`rename "${call.args.title}"`];
      if (call.method === 'assistant.threads.setStatus')
        return [call.args.status ? 'text status' : 'text cleared'];
      if (call.method === 'chat.postMessage') return ['post'];
      return [];
    })
    .filter((entry, index, all) => entry !== 'text status' || all[index - 1] !== 'text status');
}

/** A person's new question in their DM with the bot (message.im). */
async function askInDm(h: Harness, text: string) {
  const channel = h.slack.dmChannel('UALICE');
  const stored = h.slack.recordUserMessage({ channel, user: 'UALICE', text });
  await h.send(messageEvent({ channel, user: 'UALICE', text, ts: stored.ts }));
  return { channel, threadTs: stored.ts };
}

describe('agent sessions', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('a new channel thread: processing with a title (no rename: the call created it), the text status, the answer, then active', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(`Why is checkout slow?\nmore words ${quick('Cache.')}`);
    await h.waitForOutcome(channel, threadTs);
    await h.slack.waitFor(() => h.slack.agentSessions.session(channel, threadTs)?.status === 'active', {
      description: 'the session active again',
    });
    expect(timeline(h, channel, threadTs)).toEqual([
      'session processing "Why is checkout slow?"',
      'text status',
      'post',
      'session active',
    ]);
    expect(h.slack.agentSessions.session(channel, threadTs)).toEqual({
      status: 'active',
      title: 'Why is checkout slow?',
    });

    // A follow-up: processing again, no new title, no rename.
    await h.reply(`and now? ${quick('Still the cache.')}`, { channel, threadTs });
    await h.waitForOutcome(channel, threadTs, 2);
    await h.slack.waitFor(
      () =>
        h.slack.agentSessions.callsIn(channel, threadTs).filter((c) => c.status === 'active').length === 2,
      { description: 'the follow-up session active' },
    );
    expect(timeline(h, channel, threadTs).slice(4)).toEqual([
      'session processing',
      'text status',
      'post',
      'session active',
    ]);
  });

  it('a DM question: processing with its title, no rename (the agent view titles the conversation)', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await askInDm(h, `What changed today?\n${quick('A deploy.')}`);
    await h.waitForOutcome(channel, threadTs);
    await h.slack.waitFor(() => h.slack.agentSessions.session(channel, threadTs)?.status === 'active', {
      description: 'the session active',
    });
    expect(timeline(h, channel, threadTs)).toEqual([
      'session processing "What changed today?"',
      'text status',
      'post',
      'session active',
    ]);
  });

  it('an error outcome clears the text status before the session goes active', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `fail ${simDirective({ steps: 1, stepMs: 20, outcome: 'error', answer: 'no data' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    await h.slack.waitFor(() => h.slack.agentSessions.session(channel, threadTs)?.status === 'active', {
      description: 'the session active',
    });
    expect(timeline(h, channel, threadTs).slice(-3)).toEqual(['post', 'text cleared', 'session active']);
  });

  it('where Slack refuses the sessions methods, goes on as before for the workspace, logged once', async () => {
    const log = memoryLogger('warn');
    harness = await startHarness({ logger: log.logger, env: { LOG_LEVEL: 'warn' } });
    const h = harness;
    h.slack.agentSessions.refuse('unknown_method');
    const first = await h.mention(`one ${quick('First.')}`);
    await h.waitForOutcome(first.channel, first.threadTs);
    const second = await h.mention(`two ${quick('Second.')}`);
    await h.waitForOutcome(second.channel, second.threadTs);
    // One try, refused; nothing more for the workspace. The text status and the answers as before.
    expect(h.slack.calls.filter((c) => SESSION_METHODS.includes(c.method))).toMatchObject([
      { method: 'agents.sessions.setStatus', ok: false, error: 'unknown_method' },
    ]);
    expect(h.slack.statusCalls(second.channel, second.threadTs).length).toBeGreaterThan(0);
    expect(
      h
        .botMessages(second.channel, second.threadTs)
        .map((m) => h.visibleText(m))
        .join(),
    ).toContain('Second.');
    const warnings = log
      .records()
      .filter((r) => String(r.msg).startsWith('agent sessions are not available'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ error: 'unknown_method' });
  });

  it('a passing failure is not a refusal: the next turn tries again', async () => {
    harness = await startHarness();
    const h = harness;
    h.slack.failNext('agents.sessions.setStatus', 'internal_error');
    const first = await h.mention(`one ${quick('First.')}`);
    await h.waitForOutcome(first.channel, first.threadTs);
    const second = await h.mention(`two ${quick('Second.')}`);
    await h.waitForOutcome(second.channel, second.threadTs);
    await h.slack.waitFor(
      () => h.slack.agentSessions.session(second.channel, second.threadTs)?.status === 'active',
      {
        description: 'the second session active',
      },
    );
    expect(h.slack.agentSessions.callsIn(second.channel, second.threadTs)[0]).toMatchObject({
      status: 'processing',
      title: expect.stringMatching(/^two/),
    });
  });
});
