import { describe, expect, it } from 'vitest';
import { type SeenItem, ThreadMonitor } from '../../dev/sandbox/thread-monitor.js';
import { createSlackPrivateReplies } from '../../src/slack/private-replies.js';
import { feedbackButtonsBlock } from '../../src/slack/views/feedback.js';
import { useStandin } from '../slack-standin/standin-fixture.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * The sandbox's ThreadMonitor reads the stand-in as a person reads Slack. Here the bot's side is
 * played by the real Web API adapters against the stand-in: the private-replies adapter opens the
 * DM thread and leaves the note, exactly as the bot does for a question in a Slack Connect channel.
 */
describe('ThreadMonitor', () => {
  const ctx = useStandin();
  const CHANNEL = 'C0SANDBOX';
  const USER = 'UALICE';

  it('follows a question the bot takes to the person’s DM, and reads the turn there', async () => {
    const { standin, client } = ctx;
    const seen: SeenItem[] = [];
    const monitor = new ThreadMonitor(
      standin,
      { channel: CHANNEL, user: USER, botUserId: standin.botUserId },
      (item) => seen.push(item),
    );
    const dm = standin.dmChannel(USER);
    // An older private thread's quote is already at the top of the DM: not this question's.
    const older = standin.recordUserMessage({ channel: CHANNEL, user: USER, text: 'older question' });
    const replies = createSlackPrivateReplies(client, memoryLogger().logger);
    const olderOrigin = { teamId: standin.teamId, channel: CHANNEL, threadTs: older.ts, sourceTs: older.ts };
    await replies.openThread(USER, olderOrigin, 'older question', 'shared');
    // Another question in the channel the bot answers in place: it never moves.
    const stays = standin.recordUserMessage({ channel: CHANNEL, user: USER, text: 'stays here' });
    monitor.watch({ channel: CHANNEL, ts: stays.ts });
    monitor.followQuestion({ channel: CHANNEL, ts: stays.ts }, stays.ts);

    const asked = standin.recordUserMessage({ channel: CHANNEL, user: USER, text: 'why are errors up?' });
    const thread = { channel: CHANNEL, ts: asked.ts };
    monitor.watch(thread);
    monitor.followQuestion(thread, asked.ts);
    monitor.poll();
    expect(seen).toEqual([]);

    const origin = { teamId: standin.teamId, channel: CHANNEL, threadTs: asked.ts, sourceTs: asked.ts };
    const root = await replies.openThread(USER, origin, 'why are errors up?', 'shared');
    await replies.leaveNote(origin, USER, 'shared');
    expect(root.channel).toBe(dm);
    const answer = await client.chat.postMessage({
      channel: dm,
      thread_ts: root.ts,
      text: 'Errors are up because of the deploy.',
      blocks: [
        { type: 'markdown', text: 'Errors are up because of the deploy.' },
        feedbackButtonsBlock('turn-1') as never,
      ],
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 'turn-1' } },
    });
    await client.chat.postEphemeral({ channel: dm, user: USER, thread_ts: root.ts, text: 'Thanks!' });
    monitor.poll();

    const to = { channel: dm, ts: root.ts };
    expect(seen.map((item) => item.kind)).toEqual(['moved', 'notice', 'notice', 'answer', 'ephemeral']);
    expect(seen[0]).toEqual({ kind: 'moved', from: thread, questionTs: asked.ts, to });
    expect(seen[1]).toMatchObject({ thread, text: expect.stringContaining('in a direct message') });
    expect(seen[2]).toMatchObject({
      thread: to,
      ts: root.ts,
      text: expect.stringContaining('>why are errors up?'),
    });
    expect(seen[3]).toMatchObject({ thread: to, ts: answer.ts, buttons: true });
    expect(seen[4]).toEqual({ kind: 'ephemeral', channel: dm, text: 'Thanks!' });
    expect(monitor.lastRateableAnswer(to)?.ts).toBe(answer.ts);
    expect(monitor.lastAnswerTs(to)).toBe(answer.ts);
    expect(monitor.endedTurns(to)).toEqual(new Set(['turn-1']));
    expect(monitor.endedTurns(thread)).toEqual(new Set());
    expect(monitor.ephemeralCount()).toBe(1);

    monitor.poll();
    expect(seen).toHaveLength(5);
  });

  it('picks up a new root the bot posts by itself, says it once and follows its thread; held roots wait', async () => {
    const { standin, client } = ctx;
    const seen: SeenItem[] = [];
    const scope = { channel: CHANNEL, user: USER, botUserId: standin.botUserId };
    // Already there when the monitor starts: not new.
    await client.chat.postMessage({ channel: CHANNEL, text: 'an old post of the bot' });
    const monitor = new ThreadMonitor(standin, scope, (item) => seen.push(item));
    // Another integration's post (a /alert) is not the bot's.
    standin.recordBotMessage({ channel: CHANNEL, text: 'Grafana: disk full' });
    monitor.poll();
    expect(seen).toEqual([]);

    const release = monitor.holdRoots();
    const card = await client.chat.postMessage({ channel: CHANNEL, text: 'a card the person asked for' });
    monitor.poll();
    expect(seen).toEqual([]);
    monitor.watch({ channel: CHANNEL, ts: card.ts as string }); // the person's action watches it
    release();

    const posted = await client.chat.postMessage({
      channel: CHANNEL,
      text: `Scheduled question, added by <@${USER}>: what broke overnight?`,
    });
    const thread = { channel: CHANNEL, ts: posted.ts as string };
    await client.chat.postMessage({
      channel: CHANNEL,
      thread_ts: thread.ts,
      text: 'Nothing broke.',
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't1' } },
    });
    monitor.poll();
    monitor.poll();
    // New roots are said first in a poll, so the session knows their thread before its lines.
    expect(seen.map((item) => item.kind)).toEqual(['root', 'notice', 'answer']);
    expect(seen[1]).toMatchObject({ kind: 'notice', text: 'a card the person asked for' });
    expect(seen[0]).toEqual({
      kind: 'root',
      thread,
      text: `Scheduled question, added by <@${USER}>: what broke overnight?`,
    });
    expect(seen[2]).toMatchObject({ kind: 'answer', thread, text: 'Nothing broke.' });
  });
});
