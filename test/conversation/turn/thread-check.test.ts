import { describe, expect, it } from 'vitest';
import { TEST_BOT_TOKEN } from '../../../dev/slack-standin/index.js';
import type { ThreadLocation } from '../../../src/conversation/thread-output-port.js';
import { createThreadCheck } from '../../../src/conversation/turn/thread-check.js';
import type { TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createSlackThreadOutput } from '../../../src/slack/thread-output.js';
import { useStandin, webClient } from '../../slack-standin/standin-fixture.js';
import { memoryLogger } from '../../support/memory-log.js';

const ctx = useStandin();
const STARTED = { steps: 0, elapsedMs: 0 };

/** The thread check on the real Slack thread output, against the stand-in, with a thread to look at. */
function setUp() {
  const { standin } = ctx;
  const log = memoryLogger();
  const output = createSlackThreadOutput({
    client: webClient(standin.apiUrl),
    identity: { botUserId: standin.botUserId, botId: standin.botId, teamId: standin.teamId },
    logger: log.logger,
    metrics: { slackApiError() {} },
    fileThresholdChars: 100_000,
  });
  const root = standin.recordUserMessage({ channel: 'C1', user: 'UALICE', text: '<@UBOT> why?' });
  const where: ThreadLocation = { teamId: standin.teamId, channel: 'C1', threadTs: root.ts };
  const turn = (turnId: string, progressTs?: string): TurnRecord => ({
    turnId,
    threadKey: `${standin.teamId}:C1:${root.ts}`,
    ...where,
    agentId: 'agent',
    userId: 'UALICE',
    sourceTs: root.ts,
    kind: 'start',
    phase: 'polling',
    sessionId: 's1',
    progressTs,
    startedAt: 0,
    deadlineAt: 1,
  });
  const progressLeft = () =>
    standin
      .messages('C1', root.ts)
      .filter((message) => message.metadata?.event_type === 'agent_progress')
      .map((message) => message.ts);
  return { check: createThreadCheck({ output, logger: log.logger }), output, where, turn, progressLeft, log };
}

describe('thread check (after a takeover)', () => {
  it("finds the turn's answer, notices and progress in one read; removes only the progress its record does not name", async () => {
    const { check, output, where, turn, progressLeft, log } = setUp();
    // A dead replica posted a progress message and never saved its ts.
    const orphan = await output.postProgress(where, STARTED, 't1');
    const otherTurns = await output.postProgress(where, STARTED, 't0');
    await output.postNotice(where, { kind: 'deadline', waitedMs: 1_000, watchForMs: 60_000 }, 't1');
    const parts = await output.postAnswer(where, { markdown: 'It was DNS.', turnId: 't1' });
    const readsBefore = ctx.standin.calls.filter((call) => call.method === 'conversations.replies').length;

    const found = await check.look(turn('t1'));

    expect(ctx.standin.calls.filter((call) => call.method === 'conversations.replies')).toHaveLength(
      readsBefore + 1,
    );
    expect(found).toEqual({ answer: parts, notices: ['deadline'], progress: [orphan] });
    await check.removeStrays(turn('t1'));
    expect(progressLeft()).toEqual([otherTurns]);
    expect(
      log.records().some((line) => line.msg === 'removed a progress message the turn record did not name'),
    ).toBe(true);
  });

  it("leaves the progress message the turn record names to the turn's own progress indicator", async () => {
    const { check, output, where, turn, progressLeft } = setUp();
    const recorded = await output.postProgress(where, STARTED, 't1');
    await check.look(turn('t1', recorded));
    await check.removeStrays(turn('t1', recorded));
    expect(progressLeft()).toEqual([recorded]);
    expect(ctx.standin.calls.some((call) => call.method === 'chat.delete')).toBe(false);
  });

  it('logs a failed removal instead of throwing, and tries once', async () => {
    const { check, output, where, turn, progressLeft, log } = setUp();
    const orphan = await output.postProgress(where, STARTED, 't1');
    await check.look(turn('t1'));
    ctx.standin.failNext('chat.delete', 'internal_error');
    await expect(check.removeStrays(turn('t1'))).resolves.toBeUndefined();
    await check.removeStrays(turn('t1'));
    expect(progressLeft()).toEqual([orphan]);
    expect(ctx.standin.calls.filter((call) => call.method === 'chat.delete')).toHaveLength(1);
    expect(log.records().find((line) => line.msg?.toString().startsWith('could not remove'))).toMatchObject({
      level: 'warn',
      msg: 'could not remove a progress message the turn record did not name',
      turnId: 't1',
      ts: orphan,
    });
  });

  it('forgets what it found once another instance owns the turn', async () => {
    const { check, output, where, turn, progressLeft } = setUp();
    const orphan = await output.postProgress(where, STARTED, 't1');
    await check.look(turn('t1'));
    check.forget('t1');
    await check.removeStrays(turn('t1'));
    expect(progressLeft()).toEqual([orphan]);
  });

  it('counts an answer only when every part is in the thread', async () => {
    const { check, output, where, turn } = setUp();
    await output.postAnswer(where, { markdown: 'Whole.', turnId: 't1' });
    // One part of two (a replica cut off mid-answer): posted again in full, so not counted.
    await fetch(`${ctx.standin.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'C1',
        thread_ts: where.threadTs,
        text: 'Part one',
        metadata: { event_type: 'agent_answer', event_payload: { turn_id: 't2', part: 1, parts: 2 } },
      }),
    });
    expect((await check.look(turn('t1'))).answer).toHaveLength(1);
    expect((await check.look(turn('t2'))).answer).toEqual([]);
  });
});
