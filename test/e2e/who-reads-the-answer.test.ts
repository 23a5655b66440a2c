import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import {
  channelSharedEvent,
  DEFAULT_BOT_USER_ID,
  messageEvent,
  type SlackStandinOptions,
  type StandinConversation,
  type StoredMessage,
} from '../../dev/slack-standin/index.js';
import { type Harness, type HarnessOptions, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * DESIGN "Who reads the answer": asking is not reading. In a conversation people outside the
 * organisation can read (Slack Connect, a guest among the members, a group DM with an outsider, or
 * Slack unable to say), `OUTSIDER_AUDIENCE` decides: `dm` (default) answers the asker privately,
 * `refuse` starts nothing, `thread` answers in the thread.
 */

const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const SECRET = 'error rate 42% on payments-db';
const INSIDERS = ['UADMIN', 'UOWNER', 'UALICE', 'UBOB', DEFAULT_BOT_USER_ID];

const slackConnect: StandinConversation = {
  id: 'C0SHARED',
  is_ext_shared: true,
  members: [...INSIDERS, 'UEXTERNAL'],
};
const privateWithGuest: StandinConversation = {
  id: 'G0PRIVATE',
  is_private: true,
  members: [...INSIDERS, 'UGUEST'],
};
const groupDmWithOutsider: StandinConversation = {
  id: 'G0MPIM',
  is_mpim: true,
  members: ['UALICE', 'UBOB', 'UEXTERNAL', DEFAULT_BOT_USER_ID],
};
const conversations: SlackStandinOptions = {
  conversations: [slackConnect, privateWithGuest, groupDmWithOutsider],
};

describe('who reads the answer', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  const start = (options: HarnessOptions = {}) =>
    startHarness({ ...options, slack: { ...conversations, ...options.slack } });
  const answersIn = (channel: string, threadTs?: string) =>
    harness.slack
      .messages(channel, threadTs)
      .filter((message) => message.metadata?.event_type === 'agent_answer');
  const textOf = (messages: StoredMessage[]) =>
    messages.map((message) => harness.visibleText(message as never)).join('\n');

  /** The asker's private thread: the bot's quote at the top of their DM, and its ts. */
  async function privateThread(user: string) {
    const dm = harness.slack.dmChannel(user);
    const quote = await harness.slack.waitFor(() =>
      harness.slack.messages(dm).find((message) => message.user === DEFAULT_BOT_USER_ID),
    );
    return { dm, quote };
  }

  describe('OUTSIDER_AUDIENCE=dm (the default)', () => {
    it('answers a question asked in a Slack Connect channel in the asker’s DM, with one note left behind', async () => {
      harness = await start();
      const asked = await harness.mention(`why are payments failing? ${quick(SECRET)}`, {
        channel: 'C0SHARED',
      });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);

      expect(textOf(answersIn(dm, quote.ts))).toContain(SECRET);
      // The quote carries the question and a link back to it.
      expect(harness.visibleText(quote as never)).toContain('why are payments failing?');
      expect(quote.text).toContain(`/archives/C0SHARED/p${asked.ts.replace('.', '')}`);
      // The shared thread: one note, no log data, no answer, no buttons.
      const shared = harness.botMessages('C0SHARED', asked.threadTs);
      expect(shared).toHaveLength(1);
      expect(textOf(shared)).toContain('<@UALICE>');
      expect(textOf(shared)).toContain('shared with another organisation');
      const fromBot = harness.slack
        .messages('C0SHARED')
        .filter((message) => message.user === DEFAULT_BOT_USER_ID);
      expect(JSON.stringify(fromBot)).not.toContain('42%');
      expect(answersIn('C0SHARED')).toHaveLength(0);
      // The agent ran once, given the question as asked.
      expect(harness.sim.runs()).toHaveLength(1);
    });

    it('takes a reply in the private thread as a follow-up of the same session', async () => {
      harness = await start();
      await harness.mention(`why? ${quick('First.')}`, { channel: 'C0SHARED' });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);
      await harness.reply(`and then? ${quick('Second.')}`, { channel: dm, threadTs: quote.ts });
      await harness.waitForOutcome(dm, quote.ts, 2);

      expect(textOf(answersIn(dm, quote.ts))).toContain('Second.');
      expect(harness.sim.runs()).toHaveLength(1);
      expect(harness.sim.runs()[0]?.turns).toBe(2);
    });

    it('treats a private channel with a guest as outsider-readable', async () => {
      harness = await start();
      const asked = await harness.mention(`status? ${quick(SECRET)}`, { channel: 'G0PRIVATE' });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);
      expect(textOf(harness.botMessages('G0PRIVATE', asked.threadTs))).toContain('guests');
      expect(answersIn('G0PRIVATE')).toHaveLength(0);
    });

    it('lets ALLOW_GUESTS=true answer in a private channel whose only outsider is a guest', async () => {
      harness = await start({ env: { ALLOW_GUESTS: 'true' } });
      const asked = await harness.mention(`status? ${quick('In the channel.')}`, { channel: 'G0PRIVATE' });
      await harness.waitForOutcome('G0PRIVATE', asked.threadTs);
      expect(textOf(answersIn('G0PRIVATE', asked.threadTs))).toContain('In the channel.');
    });

    it('treats a group DM with a person of another organisation as outsider-readable', async () => {
      harness = await start();
      const stored = harness.slack.recordUserMessage({ channel: 'G0MPIM', user: 'UALICE', text: 'why?' });
      const text = `<@${DEFAULT_BOT_USER_ID}> why? ${quick(SECRET)}`;
      await harness.send({
        ...messageEvent({ channel: 'G0MPIM', user: 'UALICE', ts: stored.ts, text }),
        channel_type: 'mpim',
      });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);
      expect(textOf(harness.botMessages('G0MPIM', stored.ts))).toContain('outside the organisation');
      expect(answersIn('G0MPIM')).toHaveLength(0);
    });

    it('fails closed when Slack cannot say who reads the channel', async () => {
      harness = await start();
      harness.slack.failNext('conversations.info', 'fatal_error');
      const asked = await harness.mention(`why? ${quick(SECRET)}`, { channel: 'C0QUIET' });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);
      expect(textOf(harness.botMessages('C0QUIET', asked.threadTs))).toContain("Slack couldn't tell me");
      expect(answersIn('C0QUIET')).toHaveLength(0);
    });

    it('asks Slack again once the channel is shared, and not before', async () => {
      const log = memoryLogger('debug');
      harness = await start({ logger: log.logger });
      const first = await harness.mention(`why? ${quick('Inside only.')}`, { channel: 'C0LATER' });
      await harness.waitForOutcome('C0LATER', first.threadTs);
      const second = await harness.mention(`and now? ${quick('Still inside.')}`, { channel: 'C0LATER' });
      await harness.waitForOutcome('C0LATER', second.threadTs);
      // The verdict was kept: one conversations.info for two questions.
      expect(harness.slack.callCount('conversations.info')).toBe(1);

      harness.slack.setConversation({
        id: 'C0LATER',
        is_ext_shared: true,
        members: [...INSIDERS, 'UEXTERNAL'],
      });
      await harness.send(channelSharedEvent('C0LATER'));
      // Bolt acks before the listener runs: wait until the verdict is dropped.
      await harness.slack.waitFor(() => log.records().some((record) => record.msg === 'audience dropped'));
      const third = await harness.mention(`after sharing? ${quick(SECRET)}`, { channel: 'C0LATER' });
      const { dm, quote } = await privateThread('UALICE');
      await harness.waitForOutcome(dm, quote.ts);
      expect(answersIn('C0LATER', third.threadTs)).toHaveLength(0);
      expect(harness.slack.callCount('conversations.info')).toBe(2);
    });

    it('judges a conversation over AUDIENCE_MEMBER_LIMIT by external sharing alone', async () => {
      harness = await start({ env: { AUDIENCE_MEMBER_LIMIT: '3' } });
      const asked = await harness.mention(`status? ${quick('Big channel.')}`, { channel: 'G0PRIVATE' });
      await harness.waitForOutcome('G0PRIVATE', asked.threadTs);
      expect(textOf(answersIn('G0PRIVATE', asked.threadTs))).toContain('Big channel.');
      expect(harness.slack.callCount('conversations.members')).toBe(0);
    });

    it('never asks Slack about a DM with the bot', async () => {
      harness = await start();
      const dm = harness.slack.dmChannel('UALICE');
      const stored = harness.slack.recordUserMessage({ channel: dm, user: 'UALICE', text: 'hi' });
      await harness.send(
        messageEvent({ channel: dm, user: 'UALICE', ts: stored.ts, text: `hi ${quick('Hello.')}` }),
      );
      await harness.waitForOutcome(dm, stored.ts);
      expect(harness.slack.callCount('conversations.info')).toBe(0);
    });
  });

  describe('OUTSIDER_AUDIENCE=refuse', () => {
    it('starts nothing in a Slack Connect channel and tells only the asker why', async () => {
      harness = await start({ env: { OUTSIDER_AUDIENCE: 'refuse' } });
      const asked = await harness.mention(`why? ${quick(SECRET)}`, { channel: 'C0SHARED' });
      const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals('C0SHARED', 'UALICE')[0]);
      expect(harness.visibleText(refusal as never)).toContain("I don't answer here");
      expect(harness.visibleText(refusal as never)).toContain('shared with another organisation');
      expect(harness.sim.runs()).toHaveLength(0);
      expect(harness.botMessages('C0SHARED', asked.threadTs)).toHaveLength(0);
    });
  });

  describe('OUTSIDER_AUDIENCE=thread', () => {
    it('answers in the Slack Connect thread, as an organisation that accepts it chose', async () => {
      harness = await start({ env: { OUTSIDER_AUDIENCE: 'thread' } });
      const asked = await harness.mention(`why? ${quick('In the shared thread.')}`, { channel: 'C0SHARED' });
      await harness.waitForOutcome('C0SHARED', asked.threadTs);
      expect(textOf(answersIn('C0SHARED', asked.threadTs))).toContain('In the shared thread.');
      // No question was asked of Slack: the policy needs no audience.
      expect(harness.slack.callCount('conversations.info')).toBe(0);
    });
  });
});
