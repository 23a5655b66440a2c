import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SIM_AGENTS,
  SIM_TOKENS,
  type Simulator,
  simDirective,
  startSimulator,
} from '../../dev/simulator/index.js';
import {
  DEFAULT_TEAM_ID,
  type SlackStandin,
  startSlackStandin,
  TEST_BOT_TOKEN,
  visibleText,
} from '../../dev/slack-standin/index.js';
import { threadKey } from '../../src/conversation/thread-key.js';
import { lockNames } from '../../src/conversation/turn/turn-ledger.js';
import type { TurnRecord } from '../../src/conversation/turn/turn-records.js';
import { createRedisStore } from '../../src/store/index.js';
import { openInspector } from '../store/redis-test-client.js';
import { harnessEnv } from '../support/bridge-harness.js';
import {
  killAllChildBots,
  mentionEvents,
  messagesOfType,
  replyEvent,
  startChildBot,
  waitUntil,
  withBotOutput,
} from '../support/child-bot.js';
import { redisAvailable, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis.js';

const hasRedis = await redisAvailable();
const LEASE_TTL_MS = 2000;

describe.skipIf(!hasRedis)('durable turns across a restart (Redis, the bot as a child process)', () => {
  let sim: Simulator;
  let slack: SlackStandin;
  let prefix: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true, longPollMs: 500 }), startSlackStandin()]);
    prefix = uniqueRedisPrefix('restart');
    env = harnessEnv(sim, slack, {
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      LEASE_TTL_MS: String(LEASE_TTL_MS),
      // Progress messages: what a dead process leaves behind in the thread must be cleaned up.
      PROGRESS_STYLE: 'message',
    });
  });
  afterEach(async () => {
    await killAllChildBots();
    await Promise.all([sim.close(), slack.close()]);
    const inspector = await openInspector();
    await inspector.deleteAll(prefix);
    await inspector.close();
  });

  it('kill -9 mid-run, start again: the answer lands exactly once and the thread keeps its session', async () => {
    const first = await startChildBot({ ...env, INSTANCE_ID: 'bot-first' });
    const mention = mentionEvents(
      slack,
      `what broke? ${simDirective({ steps: 15, stepMs: 200, answer: 'The cache node ran out of memory.' })}`,
    );
    const acks = await Promise.all([first.send(mention.appMention), first.send(mention.message)]);
    expect(acks.map((ack) => ack.status)).toEqual([200, 200]);

    // The run is under way, its session id is saved (the bot logs "turn started" after that), and
    // the bot shows progress in the thread. Killed before the session id is saved, the turn would
    // be reported lost instead: the other test covers that.
    await withBotOutput(
      waitUntil(
        () =>
          sim.runs()[0]?.status === 'loading' &&
          first.logs().some((line) => line.msg === 'turn started') &&
          messagesOfType(slack, mention.channel, mention.threadTs, 'agent_progress').length === 1,
        { timeoutMs: 8_000, description: 'the run started and the progress message' },
      ),
      first,
    );
    const killed = await first.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect(messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer')).toHaveLength(0);

    // A new process (a new instance id) adopts the turn once the dead one's lease expires.
    const second = await startChildBot({ ...env, INSTANCE_ID: 'bot-second' });
    const answers = await withBotOutput(
      slack.waitFor(
        () => {
          const found = messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer');
          return found.length > 0 && found;
        },
        { timeoutMs: 15_000, description: 'the answer after the restart' },
      ),
      second,
    );
    expect(visibleText(answers[0] as never)).toContain('The cache node ran out of memory.');
    // The thread is idle again: the dead process's progress message is gone.
    await slack.waitFor(
      () => messagesOfType(slack, mention.channel, mention.threadTs, 'agent_progress').length === 0,
      { timeoutMs: 5_000, description: 'the progress message removed' },
    );
    expect(second.logs().some((line) => line.msg === 'resuming turn')).toBe(true);
    expect(sim.runs()).toHaveLength(1);

    // A follow-up in the same thread continues the same agent session.
    const reply = replyEvent(slack, `and why? ${simDirective({ steps: 1, stepMs: 50, answer: 'A leak.' })}`, {
      threadTs: mention.threadTs,
    });
    expect((await second.send(reply.message)).status).toBe(200);
    await withBotOutput(
      slack.waitFor(
        () => messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer').length === 2,
        { timeoutMs: 8_000, description: 'the follow-up answer' },
      ),
      second,
    );
    expect(sim.runs()).toHaveLength(1);
    expect(sim.runs()[0]?.turns).toBe(2);
    // Exactly once: one answer per turn, no matter how long we look.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer');
    expect(new Set(all.map((message) => message.metadata?.event_payload?.turn_id)).size).toBe(2);
    expect(all).toHaveLength(2);
  });

  /** The turns in flight in the store, as a successor would find them. */
  async function turnsInFlight(): Promise<TurnRecord[]> {
    const store = await createRedisStore({ url: TEST_REDIS_URL, prefix });
    try {
      const ids = await store.listInFlightTurnIds();
      const turns = await Promise.all(ids.map((id) => store.getTurn(id)));
      return turns.filter((turn): turn is TurnRecord => turn !== undefined);
    } finally {
      await store.close();
    }
  }

  it('kill -9 after Slack accepted the progress message but before its ts was saved: the successor removes it and answers once', async () => {
    // Slack posts the progress message but its answer never reaches the bot: the bot cannot save
    // the message's ts, exactly as when it dies between the two. Deterministic, however slow the machine.
    slack.leaveUnansweredNext('chat.postMessage');
    const first = await startChildBot({ ...env, INSTANCE_ID: 'bot-first' });
    const mention = mentionEvents(
      slack,
      `what broke? ${simDirective({ steps: 10, stepMs: 200, answer: 'A full disk.' })}`,
    );
    await Promise.all([first.send(mention.appMention), first.send(mention.message)]);
    const progressIn = () => messagesOfType(slack, mention.channel, mention.threadTs, 'agent_progress');
    await withBotOutput(
      waitUntil(() => first.logs().some((line) => line.msg === 'turn started') && progressIn().length === 1, {
        timeoutMs: 8_000,
        description: 'the run started and Slack took the progress message',
      }),
      first,
    );
    await first.kill('SIGKILL');
    const [stored] = await turnsInFlight();
    expect(stored?.sessionId).toBeDefined();
    expect(stored?.progressTs).toBeUndefined();
    expect(progressIn()[0]?.metadata?.event_payload?.turn_id).toBe(stored?.turnId);

    const threadReads = () => slack.calls.filter((call) => call.method === 'conversations.replies').length;
    const readsBefore = threadReads();
    const second = await startChildBot({ ...env, INSTANCE_ID: 'bot-second' });
    await withBotOutput(
      slack.waitFor(
        () =>
          messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer').length === 1 &&
          progressIn().length === 0,
        { timeoutMs: 15_000, description: 'the answer, and the unrecorded progress message gone' },
      ),
      second,
    );
    expect(second.logs().some((line) => line.msg === 'resuming turn')).toBe(true);
    const removed = await waitUntil(
      () =>
        second.logs().find((line) => line.msg === 'removed a progress message the turn record did not name'),
      { description: 'the removal logged' },
    );
    expect(removed).toMatchObject({ turnId: stored?.turnId });
    // Exactly once, however long we look; the takeover read the thread once for it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = messagesOfType(slack, mention.channel, mention.threadTs, 'agent_answer');
    expect(answers).toHaveLength(1);
    expect(visibleText(answers[0] as never)).toContain('A full disk.');
    expect(threadReads() - readsBefore).toBe(1);
    expect(sim.runs()).toHaveLength(1);
  });

  /** Starts a run at the simulator directly (as a bot that then died would have); returns its session id. */
  async function startSimRun(message: string): Promise<string> {
    const response = await fetch(`${sim.url}/v2/ai-agent/${SIM_AGENTS.api}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': SIM_TOKENS.agent },
      body: JSON.stringify({ context: { message } }),
    });
    const body = (await response.json()) as { sessionId: string };
    return body.sessionId;
  }

  /** Posts a message as the bot (what a dead replica had already posted). */
  async function postAsBot(message: Record<string, unknown>): Promise<void> {
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${TEST_BOT_TOKEN}`,
      },
      body: JSON.stringify(message),
    });
    const body = (await response.json()) as { ok: boolean; error?: string };
    if (!body.ok) throw new Error(`chat.postMessage failed: ${body.error}`);
  }

  /**
   * What a process leaves behind when it dies after saving a turn: the thread (with the session id
   * only if the process got that far), the turn (in the in-flight set), the thread's busy lock. Its
   * lease has expired with it.
   */
  async function leaveCrashedTurn(turn: {
    phase: TurnRecord['phase'];
    sessionId?: string;
    threadHasSession: boolean;
    deadlineAt?: number;
  }) {
    const channel = 'C0GENERAL';
    const stored = slack.recordUserMessage({ channel, user: 'UALICE', text: '<@UBOT> is prod ok?' });
    const key = threadKey(DEFAULT_TEAM_ID, channel, stored.ts);
    const now = Date.now();
    const record: TurnRecord = {
      turnId: randomUUID(),
      threadKey: key,
      teamId: DEFAULT_TEAM_ID,
      channel,
      threadTs: stored.ts,
      agentId: SIM_AGENTS.api,
      userId: 'UALICE',
      sourceTs: stored.ts,
      kind: 'start',
      phase: turn.phase,
      sessionId: turn.sessionId,
      startedAt: now - 1_000,
      deadlineAt: turn.deadlineAt ?? now + 600_000,
    };
    const store = await createRedisStore({ url: TEST_REDIS_URL, prefix });
    try {
      await store.saveThread({
        threadKey: key,
        teamId: DEFAULT_TEAM_ID,
        channel,
        threadTs: stored.ts,
        agentId: SIM_AGENTS.api,
        sessionId: turn.threadHasSession ? turn.sessionId : undefined,
        createdAt: now - 1_000,
        updatedAt: now - 1_000,
      });
      await store.tryLock(lockNames.thread(key), record.turnId, 600_000);
      await store.saveTurn(record);
    } finally {
      await store.close();
    }
    return { channel, threadTs: stored.ts, turn: record };
  }

  it('a turn that died before its session id was saved is not re-run: the thread is told to ask again', async () => {
    const { channel, threadTs, turn } = await leaveCrashedTurn({
      phase: 'starting',
      threadHasSession: false,
    });
    // Its progress message had landed (it is posted beside the start request); nothing recorded it.
    await postAsBot({
      channel,
      thread_ts: threadTs,
      text: 'Working on it…',
      metadata: { event_type: 'agent_progress', event_payload: { turn_id: turn.turnId } },
    });

    const bot = await startChildBot({ ...env, INSTANCE_ID: 'bot-after-crash' });
    const notices = await withBotOutput(
      slack.waitFor(
        () => {
          const found = messagesOfType(slack, channel, threadTs, 'agent_notice');
          return found.length > 0 && found;
        },
        { timeoutMs: 8_000, description: 'the ask-again notice' },
      ),
      bot,
    );
    expect(notices).toHaveLength(1);
    expect(visibleText(notices[0] as never)).toMatch(/send your message again/);
    expect(notices[0]?.metadata?.event_payload?.turn_id).toBe(turn.turnId);
    expect(sim.runs()).toHaveLength(0);
    await slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_progress').length === 0, {
      timeoutMs: 5_000,
      description: "the dead process's progress message removed with the notice",
    });

    // The thread is free again: asking again starts a run and is answered.
    const again = mentionEvents(
      slack,
      `is prod ok? ${simDirective({ steps: 1, stepMs: 50, answer: 'Yes.' })}`,
      {
        threadTs,
      },
    );
    await Promise.all([bot.send(again.appMention), bot.send(again.message)]);
    await withBotOutput(
      slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_answer').length === 1, {
        timeoutMs: 8_000,
        description: 'the answer to the repeated question',
      }),
      bot,
    );
    expect(sim.runs()).toHaveLength(1);
    expect(messagesOfType(slack, channel, threadTs, 'agent_notice')).toHaveLength(1);
  });

  it('a turn that died after saving its session on the turn but not yet on the thread: resumed, and the thread keeps the session', async () => {
    // The run exists at the service; only the turn record knows its session id.
    const sessionId = await startSimRun(simDirective({ steps: 3, stepMs: 100, answer: 'Prod is fine.' }));
    const { channel, threadTs } = await leaveCrashedTurn({
      phase: 'polling',
      sessionId,
      threadHasSession: false,
    });

    const bot = await startChildBot({ ...env, INSTANCE_ID: 'bot-after-crash' });
    await withBotOutput(
      slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_answer').length === 1, {
        timeoutMs: 8_000,
        description: 'the resumed answer',
      }),
      bot,
    );
    const reply = replyEvent(
      slack,
      `and staging? ${simDirective({ steps: 1, stepMs: 50, answer: 'Also.' })}`,
      {
        threadTs,
      },
    );
    expect((await bot.send(reply.message)).status).toBe(200);
    await withBotOutput(
      slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_answer').length === 2, {
        timeoutMs: 8_000,
        description: 'the follow-up answer in the same session',
      }),
      bot,
    );
    expect(sim.runs()).toHaveLength(1);
    expect(sim.runs()[0]?.turns).toBe(2);
  });

  it('a progress message its dead owner never recorded goes when the deadline notice takes over from it', async () => {
    const sessionId = await startSimRun(simDirective({ steps: 60, stepMs: 500, answer: 'Late but right.' }));
    const { channel, threadTs, turn } = await leaveCrashedTurn({
      phase: 'polling',
      sessionId,
      threadHasSession: true,
      deadlineAt: Date.now() - 1_000,
    });
    await postAsBot({
      channel,
      thread_ts: threadTs,
      text: 'Working on it…',
      metadata: { event_type: 'agent_progress', event_payload: { turn_id: turn.turnId } },
    });

    const bot = await startChildBot({ ...env, INSTANCE_ID: 'bot-after-crash' });
    await withBotOutput(
      slack.waitFor(
        () =>
          messagesOfType(slack, channel, threadTs, 'agent_notice').length === 1 &&
          messagesOfType(slack, channel, threadTs, 'agent_progress').length === 0,
        { timeoutMs: 8_000, description: 'the still-working notice in place of the progress message' },
      ),
      bot,
    );
    // The run goes on (watched for a late answer at a slow pace); the thread says so once.
    expect(
      messagesOfType(slack, channel, threadTs, 'agent_notice')[0]?.metadata?.event_payload,
    ).toMatchObject({
      turn_id: turn.turnId,
      notice: 'deadline',
      final: false,
    });
    expect(messagesOfType(slack, channel, threadTs, 'agent_answer')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(messagesOfType(slack, channel, threadTs, 'agent_notice')).toHaveLength(1);
    expect(messagesOfType(slack, channel, threadTs, 'agent_progress')).toHaveLength(0);
  });

  it('a replica that died mid-post: the survivor waits out its delivery claim and finds the answer instead of posting it twice', async () => {
    const sessionId = await startSimRun(
      simDirective({ steps: 1, stepMs: 50, answer: 'Posted before the crash.' }),
    );
    await waitUntil(() => sim.run(sessionId)?.status === 'done', { description: 'the run done' });
    const { channel, threadTs, turn } = await leaveCrashedTurn({
      phase: 'polling',
      sessionId,
      threadHasSession: true,
    });
    // The dead replica had claimed delivery and its post had landed; the delivered mark had not.
    await postAsBot({
      channel,
      thread_ts: threadTs,
      text: 'Posted before the crash.',
      metadata: { event_type: 'agent_answer', event_payload: { turn_id: turn.turnId, part: 1, parts: 1 } },
    });
    const store = await createRedisStore({ url: TEST_REDIS_URL, prefix });
    try {
      await store.tryLock(lockNames.delivery(turn.turnId), 'dead-replica', 4_000);
    } finally {
      await store.close();
    }

    const bot = await startChildBot({ ...env, INSTANCE_ID: 'bot-after-crash' });
    const delivered = await withBotOutput(
      waitUntil(() => bot.logs().find((line) => line.msg === 'answer delivered'), {
        timeoutMs: 10_000,
        description: 'the turn finished once the claim lapsed',
      }),
      bot,
    );
    expect(delivered.foundInThread).toBe(true);
    expect(messagesOfType(slack, channel, threadTs, 'agent_answer')).toHaveLength(1);

    // The thread is free and keeps its session.
    const reply = replyEvent(
      slack,
      `and now? ${simDirective({ steps: 1, stepMs: 50, answer: 'Still fine.' })}`,
      {
        threadTs,
      },
    );
    expect((await bot.send(reply.message)).status).toBe(200);
    await withBotOutput(
      slack.waitFor(() => messagesOfType(slack, channel, threadTs, 'agent_answer').length === 2, {
        timeoutMs: 8_000,
        description: 'the follow-up answer',
      }),
      bot,
    );
    expect(sim.runs()).toHaveLength(1);
    expect(sim.runs()[0]?.turns).toBe(2);
  });
});
