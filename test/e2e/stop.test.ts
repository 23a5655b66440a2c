import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { agentSessionStoppedEvent } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { waitUntil } from '../support/child-bot.js';

/**
 * DESIGN "Agent sessions and Stop" end to end, on one replica: Stop pressed on a thread's agent
 * session ends the turn at once — no more polls, the text status cleared, the session `active`,
 * one note — the stopped run's answer never shows (not even late), and the thread's next question
 * starts a new session with the thread as context. An outsider's stop changes nothing.
 */
const byType = (h: Harness, channel: string, threadTs: string, type: string) =>
  h.slack.messages(channel, threadTs).filter((m) => m.metadata?.event_type === type);

const stopNotice = (h: Harness, channel: string, threadTs: string) =>
  h.slack.waitFor(
    () => byType(h, channel, threadTs, 'agent_notice').find((m) => /Stopped\./.test(h.visibleText(m))),
    { timeoutMs: 10_000, description: 'the stop note' },
  );

/** Status requests the service got for one session. */
const pollsOf = (h: Harness, sessionId: string) =>
  h.sim.requests.filter((r) => r.method === 'GET' && r.path.includes(sessionId)).length;

const metric = async (h: Harness, pattern: RegExp) => pattern.test(await h.bridge.metrics.render());

/** Starts a run of about `ms` and waits until its session shows Stop. */
async function askSlow(h: Harness, ms: number, answer: string) {
  const asked = await h.mention(`dig deep ${simDirective({ steps: 4, stepMs: Math.round(ms / 5), answer })}`);
  await h.slack.waitFor(() => h.slack.agentSessions.showsStop(asked.channel, asked.threadTs), {
    description: 'the session processing (Stop shown)',
  });
  await h.slack.waitFor(() => h.sim.runs()[0], { description: 'the run started' });
  return asked;
}

/** Waits for the service to finish the stopped run on its side (it has no cancel). */
const runFinished = (h: Harness, sessionId: string) =>
  h.slack.waitFor(() => h.sim.run(sessionId)?.status === 'done', {
    timeoutMs: 10_000,
    description: 'the stopped run done on the service side',
  });

describe('Stop on a thread', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('stops following the run at once; its answer never shows; the next question starts a new session', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await askSlow(h, 2_000, 'Never shown.');
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';

    await h.send(agentSessionStoppedEvent({ channel, thread_ts: threadTs, user: 'UBOB' }));
    const note = await stopNotice(h, channel, threadTs);
    expect(h.visibleText(note)).toContain('The agent may still finish on its side');
    expect(h.visibleText(note)).toContain('Ask again to start over');
    await h.slack.waitFor(() => h.slack.agentSessions.session(channel, threadTs)?.status === 'active', {
      description: 'the session active',
    });
    expect(h.slack.statusCalls(channel, threadTs).at(-1)?.status).toBe('');
    expect(h.slack.threadStatus(channel, threadTs)).toBeUndefined();
    expect(await metric(h, /^sab_stops_total\{result="stopped"\} 1$/m)).toBe(true);
    expect(await metric(h, /^sab_turns_finished_total\{outcome="stopped"\} 1$/m)).toBe(true);
    const pollsAtStop = pollsOf(h, sessionId);

    // The service finishes the run on its side; then the thread's next question.
    await runFinished(h, sessionId);
    await h.reply(`try again ${simDirective({ steps: 1, stepMs: 50, answer: 'Fresh answer.' })}`, {
      channel,
      threadTs,
    });
    await h.slack.waitFor(() => byType(h, channel, threadTs, 'agent_answer').length === 1, {
      description: 'the new answer',
    });
    const thread = h.botMessages(channel, threadTs).map((m) => h.visibleText(m));
    expect(thread.join('\n')).not.toContain('Never shown.');
    expect(thread.join('\n')).toContain('Fresh answer.');
    expect(pollsOf(h, sessionId)).toBe(pollsAtStop);
    // A new run with its own session, never a follow-up of the stopped one; the thread is its context.
    const runs = h.sim.runs();
    expect(runs.map((run) => run.turns)).toEqual([1, 1]);
    expect(runs[1]?.sessionId).not.toBe(sessionId);
    expect(runs[1]?.contexts[0]?.additionalContext).toContain('dig deep');
    expect(
      h.slack.agentSessions.callsIn(channel, threadTs).filter((c) => c.status === 'processing'),
    ).toHaveLength(2);
    // The thread's session existed, and Slack names a session only when it is created: renamed.
    const renames = h.slack.calls.filter((call) => call.method === 'agents.sessions.rename');
    expect(renames.map((call) => call.args.title)).toEqual([expect.stringContaining('try again')]);
  });

  it('a stop past the deadline ends the late watch: the late answer is never posted', async () => {
    harness = await startHarness({ env: { TURN_DEADLINE_SECONDS: '1', LATE_ANSWER_WATCH_MINUTES: '1' } });
    const h = harness;
    const { channel, threadTs } = await askSlow(h, 3_000, 'Late and unwanted.');
    const sessionId = h.sim.runs()[0]?.sessionId ?? '';
    await h.slack.waitFor(
      () =>
        byType(h, channel, threadTs, 'agent_notice').find((m) =>
          /still working after/.test(h.visibleText(m)),
        ),
      { timeoutMs: 10_000, description: 'the deadline notice' },
    );
    await h.send(agentSessionStoppedEvent({ channel, thread_ts: threadTs }));
    await stopNotice(h, channel, threadTs);
    await runFinished(h, sessionId);
    await h.reply(`again ${simDirective({ steps: 1, stepMs: 50, answer: 'Wanted.' })}`, {
      channel,
      threadTs,
    });
    await h.slack.waitFor(() => byType(h, channel, threadTs, 'agent_answer').length === 1, {
      description: 'the new answer',
    });
    const answers = byType(h, channel, threadTs, 'agent_answer').map((m) => h.visibleText(m));
    expect(answers.join()).toContain('Wanted.');
    expect(answers.join()).not.toContain('Late and unwanted.');
    expect(h.sim.runs().map((run) => run.turns)).toEqual([1, 1]);
  });

  it("ignores an outsider's stop: the run goes on and its answer lands", async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await askSlow(h, 1_000, 'Answered anyway.');
    await h.send(agentSessionStoppedEvent({ channel, thread_ts: threadTs, user: 'UEXTERNAL' }));
    await waitUntil(() => metric(h, /^sab_stops_total\{result="outsider"\} 1$/m), {
      description: 'the stop counted as an outsider',
    });
    await h.waitForOutcome(channel, threadTs);
    expect(h.visibleText(byType(h, channel, threadTs, 'agent_answer')[0] ?? {})).toContain(
      'Answered anyway.',
    );
    expect(byType(h, channel, threadTs, 'agent_notice')).toEqual([]);
    expect(await metric(h, /^sab_stops_total\{result="stopped"\} 0$/m)).toBe(true);
  });

  it('a stop with nothing running leaves the session active', async () => {
    harness = await startHarness();
    const h = harness;
    const { channel, threadTs } = await h.mention(
      `quick ${simDirective({ steps: 1, stepMs: 20, answer: 'Done.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    await h.send(agentSessionStoppedEvent({ channel, thread_ts: threadTs }));
    await waitUntil(() => metric(h, /^sab_stops_total\{result="idle"\} 1$/m), {
      description: 'the stop counted as idle',
    });
    expect(h.slack.agentSessions.session(channel, threadTs)?.status).toBe('active');
    expect(byType(h, channel, threadTs, 'agent_notice')).toEqual([]);
  });
});
