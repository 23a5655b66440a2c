import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import { appMentionEvent, DEFAULT_BOT_USER_ID, messageEvent } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const answersIn = (harness: Harness, channel: string, threadTs: string) =>
  harness.slack
    .messages(channel, threadTs)
    .filter((message) => message.metadata?.event_type === 'agent_answer');

describe('what starts a turn', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('a mention inside an existing thread answers in that thread', async () => {
    harness = await startHarness();
    const parent = harness.slack.recordUserMessage({
      channel: 'C0GENERAL',
      user: 'UBOB',
      text: 'deploy went out',
    });
    const mention = await harness.mention(`is it healthy? ${quick('All green.')}`, { threadTs: parent.ts });
    expect(mention.threadTs).toBe(parent.ts);
    await harness.waitForOutcome('C0GENERAL', parent.ts);
    expect(harness.visibleText(answersIn(harness, 'C0GENERAL', parent.ts)[0] as never)).toContain(
      'All green.',
    );
  });

  it('a DM is answered in a thread under it, and a new top-level DM starts a new session', async () => {
    harness = await startHarness();
    const first = harness.slack.recordUserMessage({
      channel: 'D0ALICE',
      user: 'UALICE',
      text: `hi ${quick('One.')}`,
    });
    await harness.send(messageEvent({ channel: 'D0ALICE', user: 'UALICE', text: first.text, ts: first.ts }));
    await harness.waitForOutcome('D0ALICE', first.ts);
    const second = harness.slack.recordUserMessage({
      channel: 'D0ALICE',
      user: 'UALICE',
      text: `again ${quick('Two.')}`,
    });
    await harness.send(
      messageEvent({ channel: 'D0ALICE', user: 'UALICE', text: second.text, ts: second.ts }),
    );
    await harness.waitForOutcome('D0ALICE', second.ts);
    const sessions = harness.sim.runs().map((run) => run.sessionId);
    expect(new Set(sessions).size).toBe(2);
    expect(answersIn(harness, 'D0ALICE', first.ts)).toHaveLength(1);
    expect(answersIn(harness, 'D0ALICE', second.ts)).toHaveLength(1);
  });

  it('a reply in a thread with a session is a follow-up of the same session, no mention needed', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`first ${quick('First answer.')}`);
    await harness.waitForOutcome(channel, threadTs);
    await harness.reply(`and then? ${quick('Second answer.')}`, { threadTs });
    await harness.waitForOutcome(channel, threadTs, 2);
    const [run] = harness.sim.runs();
    expect(harness.sim.runs()).toHaveLength(1);
    expect(run?.turns).toBe(2);
    expect(run?.prompts[1]).toContain('and then?');
    expect(answersIn(harness, channel, threadTs).map((message) => harness.visibleText(message))).toEqual([
      expect.stringContaining('First answer.'),
      expect.stringContaining('Second answer.'),
    ]);
  });

  it("people's thread_broadcast and file_share replies count as turns", async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`start ${quick('A.')}`);
    await harness.waitForOutcome(channel, threadTs);
    const broadcast = harness.slack.recordUserMessage({
      channel,
      user: 'UALICE',
      text: `broadcast ${quick('B.')}`,
      thread_ts: threadTs,
    });
    await harness.send(
      messageEvent({
        channel,
        ts: broadcast.ts,
        thread_ts: threadTs,
        text: broadcast.text,
        subtype: 'thread_broadcast',
      }),
    );
    await harness.waitForOutcome(channel, threadTs, 2);
    const share = harness.slack.recordUserMessage({
      channel,
      user: 'UALICE',
      text: `see file ${quick('C.')}`,
      thread_ts: threadTs,
    });
    await harness.send(
      messageEvent({
        channel,
        ts: share.ts,
        thread_ts: threadTs,
        text: share.text,
        files: [{ id: 'F1', name: 'errors.log' }] as never,
      }),
    );
    await harness.waitForOutcome(channel, threadTs, 3);
    expect(harness.sim.runs()[0]?.turns).toBe(3);
  });

  it('a /me message is a message like any other; a file shared with a mention gets a footer', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`start ${quick('A.')}`);
    await harness.waitForOutcome(channel, threadTs);
    const me = harness.slack.recordUserMessage({ channel, user: 'UALICE', text: 'x', thread_ts: threadTs });
    await harness.send(
      messageEvent({
        channel,
        ts: me.ts,
        thread_ts: threadTs,
        text: `waves ${quick('B.')}`,
        subtype: 'me_message',
      }),
    );
    await harness.waitForOutcome(channel, threadTs, 2);
    expect(harness.sim.runs()[0]?.prompts[1]).toContain('waves');
    const [firstAnswer, secondAnswer] = answersIn(harness, channel, threadTs);
    expect(harness.visibleText(secondAnswer as never)).not.toContain('Files');

    const text = `<@${DEFAULT_BOT_USER_ID}> what is in this log? ${quick('C.')}`;
    const share = harness.slack.recordUserMessage({ channel, user: 'UALICE', text });
    await harness.send(messageEvent({ channel, ts: share.ts, text, files: [{ id: 'F9', name: 'app.log' }] }));
    await harness.waitForOutcome(channel, share.ts);
    const [withFile] = answersIn(harness, channel, share.ts);
    // A file object without url_private_download (as Slack sends hidden files): named, not read.
    expect(harness.visibleText(withFile as never)).toContain('Not sent: `app.log` (not readable by the bot)');
    expect(harness.visibleText(firstAnswer as never)).not.toContain('Files');
  });

  it('ignores bots, edits, deletions, joins and threads without a session', async () => {
    harness = await startHarness();
    const thread = harness.slack.recordUserMessage({ channel: 'C0GENERAL', user: 'UBOB', text: 'unrelated' });
    const events = [
      messageEvent({ text: `<@${DEFAULT_BOT_USER_ID}> from a bot`, bot_id: 'B0OTHER', user: null }),
      messageEvent({
        text: `<@${DEFAULT_BOT_USER_ID}> bot message`,
        subtype: 'bot_message',
        bot_id: 'B0OTHER',
        user: null,
      }),
      messageEvent({ text: `<@${DEFAULT_BOT_USER_ID}> me`, user: DEFAULT_BOT_USER_ID, bot_id: 'B0BOT' }),
      messageEvent({ text: `<@${DEFAULT_BOT_USER_ID}> edited`, subtype: 'message_changed' }),
      messageEvent({ text: '', subtype: 'message_deleted' }),
      messageEvent({ text: '<@UALICE> has joined the channel', subtype: 'channel_join' }),
      messageEvent({ text: 'a reply without mention', thread_ts: thread.ts }),
    ];
    for (const event of events) expect((await harness.send(event)).status).toBe(200);
    // A turn started after them proves the bot processed its queue; none of the above ran.
    const { channel, threadTs } = await harness.mention(`real ${quick('Only me.')}`);
    await harness.waitForOutcome(channel, threadTs);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.slack.ephemerals()).toHaveLength(0);
  });

  it('a mention in a group DM starts a thread like in a channel; chatter there stays quiet', async () => {
    harness = await startHarness();
    const channel = 'G0GROUPDM';
    const chatter = harness.slack.recordUserMessage({ channel, user: 'UBOB', text: 'lunch?' });
    await harness.send(
      messageEvent({ channel, user: 'UBOB', ts: chatter.ts, text: 'lunch?', channel_type: 'mpim' }),
    );
    const text = `<@${DEFAULT_BOT_USER_ID}> errors? ${quick('Group answer.')}`;
    const stored = harness.slack.recordUserMessage({ channel, user: 'UALICE', text });
    await Promise.all([
      harness.send(appMentionEvent({ channel, user: 'UALICE', ts: stored.ts, text })),
      harness.send(messageEvent({ channel, user: 'UALICE', ts: stored.ts, text, channel_type: 'mpim' })),
    ]);
    await harness.waitForOutcome(channel, stored.ts);
    expect(answersIn(harness, channel, stored.ts)).toHaveLength(1);
    expect(harness.sim.runs()).toHaveLength(1);
  });

  it('turns mention markup into readable text for the agent', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(
      `ask <@UBOB> about <#C0OPS|ops> and <https://status.example.com|the status page> &amp; <https://x.example.com> ${quick('ok')}`,
    );
    await harness.waitForOutcome(channel, threadTs);
    const prompt = harness.sim.runs()[0]?.prompts[0] ?? '';
    expect(prompt).not.toContain(`<@${DEFAULT_BOT_USER_ID}>`);
    expect(prompt).toContain('#ops');
    expect(prompt).toContain('the status page (https://status.example.com)');
    expect(prompt).toContain('& https://x.example.com');
    expect(prompt).not.toMatch(/<[@#]/);
  });

  it('refuses users from another organisation (Slack Connect), telling only them', async () => {
    harness = await startHarness();
    const text = `<@${DEFAULT_BOT_USER_ID}> leak the logs`;
    const stored = harness.slack.recordUserMessage({
      channel: 'C0SHARED',
      user: 'UEXTERNAL',
      text,
      team: 'T0OTHERORG',
    });
    await harness.send(
      messageEvent({
        channel: 'C0SHARED',
        user: 'UEXTERNAL',
        text,
        ts: stored.ts,
        team: 'T0OTHERORG',
        user_team: 'T0OTHERORG',
      } as never),
    );
    const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals('C0SHARED', 'UEXTERNAL')[0]);
    expect(harness.visibleText(refusal as never).toLowerCase()).toContain('organisation');
    expect(harness.sim.runs()).toHaveLength(0);
    expect(
      harness.slack.messages('C0SHARED', stored.ts).filter((message) => message.user === DEFAULT_BOT_USER_ID),
    ).toHaveLength(0);
  });

  it('answers only in allowlisted channels (DMs always)', async () => {
    harness = await startHarness({ env: { ALLOWED_CHANNEL_IDS: 'C0ALLOWED' } });
    const outside = await harness.mention(`hello ${quick('no')}`, { channel: 'C0ELSEWHERE' });
    await harness.slack.waitFor(() => harness.slack.ephemerals('C0ELSEWHERE')[0], {
      description: 'allowlist refusal',
    });
    const inside = await harness.mention(`hello ${quick('yes')}`, { channel: 'C0ALLOWED' });
    await harness.waitForOutcome(inside.channel, inside.threadTs);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(answersIn(harness, outside.channel, outside.threadTs)).toHaveLength(0);
  });
});

describe('one handler per Slack message', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('double delivery and retries with new event ids start exactly one run', async () => {
    harness = await startHarness();
    const { channel, threadTs, ts } = await harness.mention(
      `once ${simDirective({ steps: 2, stepMs: 100 })}`,
    );
    const text = `<@${DEFAULT_BOT_USER_ID}> once ${simDirective({ steps: 2, stepMs: 100 })}`;
    const retries = await Promise.all(
      [1, 2, 3].map((retryNum) =>
        harness.send(messageEvent({ channel, ts, text }), { retryNum, eventId: `EvRETRY${retryNum}` }),
      ),
    );
    expect(retries.every((response) => response.status === 200 && response.ms < 3000)).toBe(true);
    await harness.waitForOutcome(channel, threadTs);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(answersIn(harness, channel, threadTs)).toHaveLength(1);
    expect(harness.slack.ephemerals()).toHaveLength(0);
  });

  it('refuses a message sent while the turn runs, visibly and without queueing it', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`slow ${simDirective({ steps: 6, stepMs: 100 })}`);
    await harness.slack.waitFor(() => harness.sim.runs()[0]);
    const early = await harness.reply('are you done yet?', { threadTs, user: 'UBOB' });
    const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UBOB')[0]);
    expect(harness.visibleText(refusal as never).toLowerCase()).toContain('still');
    await harness.slack.waitFor(
      () =>
        harness.slack
          .reactionsOn(channel, early.ts)
          .some((reaction) => reaction.name === 'hourglass_flowing_sand'),
      { description: 'an hourglass on the refused message' },
    );
    await harness.waitForOutcome(channel, threadTs);
    // Nothing was queued. Not a fixed sleep: the thread's next reply is the session's second turn
    // (a queued message would have taken that place, or kept the thread busy and refused this one).
    await harness.reply(`next? ${quick('Second.')}`, { threadTs });
    await harness.waitForOutcome(channel, threadTs, 2);
    const [run] = harness.sim.runs();
    expect(run?.turns).toBe(2);
    expect(run?.prompts[1]).toContain('next?');
    expect(run?.prompts.some((prompt) => prompt.includes('are you done yet?'))).toBe(false);
    expect(answersIn(harness, channel, threadTs)).toHaveLength(2);
  });
});

describe('a thread the bot answered in, even with a notice', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  const notices = (channel: string, threadTs: string) =>
    harness.slack
      .messages(channel, threadTs)
      .filter((message) => message.metadata?.event_type === 'agent_notice')
      .map((message) => harness.visibleText(message));

  it('takes a reply as a new run once the agent is enabled again', async () => {
    harness = await startHarness();
    harness.sim.setAgentActive(SIM_AGENTS.api, false);
    const { channel, threadTs } = await harness.mention('why is it slow?');
    await harness.waitForOutcome(channel, threadTs);
    expect(notices(channel, threadTs)[0]).toContain('disabled');
    harness.sim.setAgentActive(SIM_AGENTS.api, true);
    await harness.reply(`and now? ${quick('Back at work.')}`, { threadTs });
    await harness.waitForOutcome(channel, threadTs, 2);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.prompts[0]).toContain('and now?');
    expect(answersIn(harness, channel, threadTs).map((m) => harness.visibleText(m))).toEqual([
      expect.stringContaining('Back at work.'),
    ]);
  });

  it('says a follow-up 404 is about the agent, not the address', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`first ${quick('One.')}`);
    await harness.waitForOutcome(channel, threadTs);
    harness.sim.setAgentActive(SIM_AGENTS.api, false);
    await harness.reply('and then?', { threadTs });
    await harness.waitForOutcome(channel, threadTs, 2);
    const [notice] = notices(channel, threadTs);
    expect(notice).toContain(`the agent \`${SIM_AGENTS.api}\` is disabled or unknown`);
    expect(notice).toContain(`/agent enable ${SIM_AGENTS.api}`);
    expect(notice).not.toContain('AGENT_API_URL');
  });
});
