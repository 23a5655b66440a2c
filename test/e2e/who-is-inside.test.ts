import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import {
  appMentionEvent,
  DEFAULT_BOT_USER_ID,
  type EventCallbackOptions,
  messageEvent,
  reactionAddedEvent,
  type SlackStandinOptions,
} from '../../dev/slack-standin/index.js';
import { type Harness, type HarnessOptions, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';
import { postInteraction, viewSubmissionPayload } from '../support/slack-events.js';

/**
 * DESIGN "Who is inside", with the payloads Slack really sends: in a Slack Connect channel the
 * envelope's team_id is the workspace that created the channel; in Enterprise Grid a colleague's
 * home workspace may be a sibling of the app's; file shares and broadcasts may name no workspace.
 */

const APP_TEAM = 'T0TEST';
const OTHER_ORG = 'T0OTHERORG';
const ENTERPRISE = 'E0ORG';
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });

/** A shared channel created by the other organisation: its envelope names them, not us. */
const createdByOtherOrg: EventCallbackOptions = {
  teamId: OTHER_ORG,
  appTeamId: APP_TEAM,
  isExtSharedChannel: true,
};

/** An Enterprise Grid org: the app in T0TEST, a colleague in the sibling workspace T0SIBLING. */
const grid: SlackStandinOptions = {
  enterpriseId: ENTERPRISE,
  extraUsers: [
    {
      id: 'WSIBLING',
      team_id: 'T0SIBLING',
      enterprise_id: ENTERPRISE,
      name: 'sib',
      real_name: 'Sam Sibling',
      is_admin: false,
      is_owner: false,
      is_bot: false,
    },
  ],
};
const gridEnvelope: EventCallbackOptions = { enterpriseId: ENTERPRISE };

describe('who is inside', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  /** A person mentions the bot: both deliveries Slack sends, with the given workspace fields and envelope. */
  async function mentionAs(
    user: string,
    text: string,
    options: { channel?: string; team?: string | null; envelope?: EventCallbackOptions } = {},
  ) {
    const channel = options.channel ?? 'C0SHARED';
    const full = `<@${DEFAULT_BOT_USER_ID}> ${text}`;
    const stored = harness.slack.recordUserMessage({ channel, user, text: full });
    const fields = { channel, user, text: full, ts: stored.ts, team: options.team };
    await Promise.all([
      harness.send(appMentionEvent(fields), { envelope: options.envelope }),
      harness.send(messageEvent(fields), { envelope: options.envelope }),
    ]);
    return { channel, threadTs: stored.ts };
  }

  const answers = (channel: string, threadTs: string) =>
    harness.slack
      .messages(channel, threadTs)
      .filter((message) => message.metadata?.event_type === 'agent_answer');
  const usersInfoCalls = (user: string) =>
    harness.slack.calls.filter((call) => call.method === 'users.info' && call.args.user === user);

  describe('a Slack Connect channel created by the other organisation', () => {
    it('refuses the outsider whose workspace equals the envelope team_id, telling only them', async () => {
      harness = await startHarness();
      const { channel, threadTs } = await mentionAs('UEXTERNAL', `leak the logs ${quick('secret')}`, {
        team: OTHER_ORG,
        envelope: createdByOtherOrg,
      });
      const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UEXTERNAL')[0]);
      expect(harness.visibleText(refusal as never)).toContain(
        "only answer people from this workspace's organisation",
      );
      expect(harness.sim.runs()).toHaveLength(0);
      expect(harness.botMessages(channel, threadTs)).toHaveLength(0);
    });

    // Who *reads* the answer is who-reads-the-answer.test.ts: by default it goes to the asker's DM.
    // An organisation that accepts answers in shared channels says so (OUTSIDER_AUDIENCE=thread).
    it('with OUTSIDER_AUDIENCE=thread, answers our colleague there and takes their reply as a follow-up', async () => {
      harness = await startHarness({
        env: { OUTSIDER_AUDIENCE: 'thread' },
        slack: { conversations: [{ id: 'C0SHARED', is_ext_shared: true }] },
      });
      const { channel, threadTs } = await mentionAs('UALICE', `why? ${quick('Because.')}`, {
        team: APP_TEAM,
        envelope: createdByOtherOrg,
      });
      await harness.waitForOutcome(channel, threadTs);
      expect(harness.visibleText(answers(channel, threadTs)[0] as never)).toContain('Because.');
      const reply = harness.slack.recordUserMessage({
        channel,
        user: 'UALICE',
        text: 'and?',
        thread_ts: threadTs,
      });
      // The reply's envelope names our workspace this time: the thread key must not change with it.
      await harness.send(
        messageEvent({
          channel,
          user: 'UALICE',
          ts: reply.ts,
          thread_ts: threadTs,
          text: `and? ${quick('More.')}`,
        }),
      );
      await harness.waitForOutcome(channel, threadTs, 2);
      expect(harness.sim.runs()).toHaveLength(1);
      expect(harness.sim.runs()[0]?.turns).toBe(2);
      expect(harness.slack.ephemerals()).toHaveLength(0);
    });
  });

  describe('Enterprise Grid', () => {
    it('answers a colleague from a sibling workspace of the org, in a channel and in a DM', async () => {
      harness = await startHarness({ slack: grid });
      const inChannel = await mentionAs('WSIBLING', `hi ${quick('Hello sibling.')}`, {
        channel: 'C0GRID',
        team: 'T0SIBLING',
        envelope: gridEnvelope,
      });
      await harness.waitForOutcome(inChannel.channel, inChannel.threadTs);
      const dm = harness.slack.recordUserMessage({ channel: 'D0SIBLING', user: 'WSIBLING', text: 'hi' });
      await harness.send(
        messageEvent({
          channel: 'D0SIBLING',
          user: 'WSIBLING',
          ts: dm.ts,
          team: 'T0SIBLING',
          text: `in a DM ${quick('Hello in DM.')}`,
        }),
        { envelope: gridEnvelope },
      );
      await harness.waitForOutcome('D0SIBLING', dm.ts);
      expect(harness.sim.runs()).toHaveLength(2);
      expect(harness.slack.ephemerals()).toHaveLength(0);
      // One users.info for both messages: the answer is cached.
      expect(usersInfoCalls('WSIBLING')).toHaveLength(1);
    });

    it('refuses a genuinely external user in a Grid channel, after asking users.info', async () => {
      harness = await startHarness({ slack: grid });
      const { channel } = await mentionAs('UEXTERNAL', `hi ${quick('no')}`, {
        channel: 'C0GRID',
        team: OTHER_ORG,
        envelope: { ...gridEnvelope, isExtSharedChannel: true },
      });
      await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UEXTERNAL')[0]);
      expect(usersInfoCalls('UEXTERNAL').length).toBeGreaterThan(0);
      expect(harness.sim.runs()).toHaveLength(0);
    });
  });

  describe('messages that name no workspace (file shares, thread broadcasts)', () => {
    async function teamless(
      user: string,
      subtype: 'file_share' | 'thread_broadcast',
      threadTs: string,
      text: string,
    ) {
      const stored = harness.slack.recordUserMessage({
        channel: 'C0SHARED',
        user,
        text,
        thread_ts: threadTs,
      });
      await harness.send(
        messageEvent({
          channel: 'C0SHARED',
          user,
          ts: stored.ts,
          thread_ts: threadTs,
          text,
          subtype,
          team: null,
          ...(subtype === 'file_share' ? { files: [{ id: 'F1', name: 'errors.log' }] } : {}),
        }),
        { envelope: createdByOtherOrg },
      );
      return stored;
    }

    it("refuses an outsider's after a users.info look-up, and takes a colleague's", async () => {
      harness = await startHarness();
      const { channel, threadTs } = await mentionAs('UALICE', `start ${quick('First.')}`, {
        team: APP_TEAM,
        envelope: createdByOtherOrg,
      });
      await harness.waitForOutcome(channel, threadTs);
      for (const subtype of ['file_share', 'thread_broadcast'] as const) {
        await teamless(
          'UEXTERNAL',
          subtype,
          threadTs,
          `<@${DEFAULT_BOT_USER_ID}> ${subtype} ${quick('leaked')}`,
        );
      }
      await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UEXTERNAL').length === 2, {
        description: 'two refusals for the outsider',
      });
      expect(usersInfoCalls('UEXTERNAL')).toHaveLength(1);
      await teamless('UALICE', 'file_share', threadTs, `see this ${quick('Second.')}`);
      await harness.waitForOutcome(channel, threadTs, 2);
      await teamless('UALICE', 'thread_broadcast', threadTs, `and this ${quick('Third.')}`);
      await harness.waitForOutcome(channel, threadTs, 3);
      expect(harness.sim.runs()[0]?.turns).toBe(3);
      expect(harness.sim.runs()[0]?.prompts.join('\n')).not.toContain('leaked');
      expect(usersInfoCalls('UALICE')).toHaveLength(1);
    });

    it('refuses (fail closed) when users.info does not answer, and says so', async () => {
      harness = await startHarness();
      harness.slack.failNext('users.info', 'internal_error');
      const stored = harness.slack.recordUserMessage({ channel: 'C0SHARED', user: 'UALICE', text: 'x' });
      await harness.send(
        messageEvent({
          channel: 'C0SHARED',
          user: 'UALICE',
          ts: stored.ts,
          text: `<@${DEFAULT_BOT_USER_ID}> file ${quick('no')}`,
          subtype: 'file_share',
          team: null,
          files: [{ id: 'F2', name: 'a.log' }],
        }),
      );
      const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals('C0SHARED', 'UALICE')[0]);
      expect(harness.visibleText(refusal as never)).toContain("couldn't check which organisation");
      expect(harness.sim.runs()).toHaveLength(0);
    });
  });

  describe('reactions and /agent from an outsider', () => {
    it('sends nothing to the service for an outsider’s 👍, while a colleague’s counts', async () => {
      harness = await startHarness();
      const { channel, threadTs } = await mentionAs('UALICE', `rate me ${quick('Rated.')}`, {
        team: APP_TEAM,
        envelope: createdByOtherOrg,
      });
      await harness.waitForOutcome(channel, threadTs);
      const answer = answers(channel, threadTs)[0];
      const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
      harness.slack.addUserReaction(channel, answer?.ts ?? '', '-1', 'UEXTERNAL');
      await harness.send(
        reactionAddedEvent({ channel, ts: answer?.ts ?? '', reaction: '-1', user: 'UEXTERNAL' }),
        {
          envelope: createdByOtherOrg,
        },
      );
      await harness.slack.waitFor(() => usersInfoCalls('UEXTERNAL').length > 0, {
        description: 'a users.info look-up',
      });
      await harness.react(channel, answer?.ts ?? '', '+1', 'UALICE');
      await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 100, {
        description: "the colleague's feedback",
      });
      expect(harness.sim.requests.filter((request) => request.path.includes('feedback'))).toHaveLength(1);
    });

    it('refuses /agent from an outsider before anything runs', async () => {
      harness = await startHarness();
      const { responseId, status } = await harness.command('whoami', {
        user: 'UEXTERNAL',
        channel: 'C0SHARED',
        teamId: OTHER_ORG,
      });
      expect(status).toBe(200);
      const [reply] = await harness.slack.waitFor(() => {
        const replies = harness.slack.responses(responseId);
        return replies.length > 0 ? replies : undefined;
      });
      expect(reply?.response_type).toBe('ephemeral');
      expect(harness.visibleText(reply as never)).toContain(
        "only answer people from this workspace's organisation",
      );
      expect(harness.sim.requests).toHaveLength(0);
      const inside = await harness.command('whoami', { user: 'UBOB', channel: 'C0SHARED' });
      const [answer] = await harness.slack.waitFor(() => {
        const replies = harness.slack.responses(inside.responseId);
        return replies.length > 0 ? replies : undefined;
      });
      expect(answer?.text).toContain('Connected to');
    });
  });

  /**
   * DESIGN "Guests are outside": a guest of the app's own workspace sends the same payloads as a
   * member (`user_team` is ours); only `users.info` (`is_restricted` / `is_ultra_restricted`) tells.
   * The stand-in's UGUEST is a multi-channel guest, UGUESTADMIN a single-channel guest with `is_admin`.
   */
  describe('guests are outside', () => {
    let logs: ReturnType<typeof memoryLogger>;
    const guestWords = "I don't answer guests of this workspace";

    async function startWithLogs(options: HarnessOptions = {}) {
      logs = memoryLogger();
      harness = await startHarness({ ...options, logger: logs.logger });
    }

    /** Waits for the bot's log record `msg` about `userId`: proof the check ran to its end. */
    const loggedFor = (msg: string, userId: string) =>
      harness.slack.waitFor(
        () => logs.records().find((record) => record.msg === msg && record.userId === userId),
        { description: `"${msg}" for ${userId}` },
      );

    const feedbackPosts = () =>
      harness.sim.requests.filter(
        (request) => request.method === 'POST' && request.path.endsWith('/feedback'),
      );

    /** `/agent <text>` by `user` of our workspace; resolves with the ephemeral reply's visible text. */
    async function command(text: string, user: string) {
      const { responseId, status } = await harness.command(text, { user, channel: 'C0GENERAL' });
      expect(status).toBe(200);
      const [reply] = await harness.slack.waitFor(() => {
        const replies = harness.slack.responses(responseId);
        return replies.length > 0 ? replies : undefined;
      });
      expect(reply?.response_type).toBe('ephemeral');
      return harness.visibleText(reply as never);
    }

    it('refuses a guest who mentions the bot or writes in a DM, telling only them; starts no run', async () => {
      await startWithLogs();
      const { channel, threadTs } = await mentionAs('UGUEST', `show me the logs ${quick('secret')}`, {
        channel: 'C0GENERAL',
        team: APP_TEAM,
      });
      const refusal = await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UGUEST')[0]);
      expect(harness.visibleText(refusal as never)).toContain(guestWords);
      expect(harness.visibleText(refusal as never)).toContain('admin');

      const dm = harness.slack.recordUserMessage({ channel: 'D0GUEST', user: 'UGUEST', text: 'hi' });
      await harness.send(
        messageEvent({ channel: 'D0GUEST', user: 'UGUEST', ts: dm.ts, text: `in a DM ${quick('secret')}` }),
      );
      const inDm = await harness.slack.waitFor(() => harness.slack.ephemerals('D0GUEST', 'UGUEST')[0]);
      expect(harness.visibleText(inDm as never)).toContain(guestWords);
      expect(harness.sim.runs()).toHaveLength(0);
      expect(harness.botMessages(channel, threadTs)).toHaveLength(0);
      expect(harness.botMessages('D0GUEST', dm.ts)).toHaveLength(0);
      // Both verdicts came from one cached users.info answer.
      expect(usersInfoCalls('UGUEST')).toHaveLength(1);
    });

    it("ignores a guest's reply in an answered thread, while a member's continues the session", async () => {
      await startWithLogs();
      const { channel, threadTs } = await mentionAs('UALICE', `why? ${quick('Because.')}`, {
        channel: 'C0GENERAL',
        team: APP_TEAM,
      });
      await harness.waitForOutcome(channel, threadTs);
      const guest = harness.slack.recordUserMessage({
        channel,
        user: 'UGUEST',
        text: 'x',
        thread_ts: threadTs,
      });
      await harness.send(
        messageEvent({
          channel,
          user: 'UGUEST',
          ts: guest.ts,
          thread_ts: threadTs,
          text: `guest asks ${quick('leaked')}`,
        }),
      );
      const refused = await loggedFor('message from outside the organisation refused', 'UGUEST');
      expect(refused.reason).toBe('guest');
      await harness.reply(`and? ${quick('More.')}`, { channel, threadTs });
      await harness.waitForOutcome(channel, threadTs, 2);
      expect(harness.sim.runs()).toHaveLength(1);
      expect(harness.sim.runs()[0]?.turns).toBe(2);
      expect(harness.sim.runs()[0]?.prompts.join('\n')).not.toContain('guest asks');
      // Unaddressed: the guest is not told anything.
      expect(harness.slack.ephemerals(channel, 'UGUEST')).toHaveLength(0);
    });

    it("sends nothing to the service for a guest's 👍 reaction, button click or comment", async () => {
      await startWithLogs();
      const { channel, threadTs } = await mentionAs('UALICE', `rate me ${quick('Rated.')}`, {
        channel: 'C0GENERAL',
        team: APP_TEAM,
      });
      await harness.waitForOutcome(channel, threadTs);
      const [answer] = answers(channel, threadTs);
      if (!answer) throw new Error('no answer');
      const sessionId = harness.sim.runs()[0]?.sessionId ?? '';

      // A reaction names no workspace: the guest is looked up, and ignored.
      await harness.react(channel, answer.ts, '+1', 'UGUEST');
      const ignored = await loggedFor('feedback from outside the organisation ignored', 'UGUEST');
      expect(ignored.reason).toBe('guest');
      // A feedback button click: the payload names our workspace for the guest.
      expect((await harness.clickFeedback(answer, true, { user: 'UGUEST' })).status).toBe(200);
      await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UGUEST').at(-1), {
        description: 'the refusal shown to the guest',
      });
      expect(JSON.stringify(harness.slack.ephemerals(channel, 'UGUEST'))).not.toContain('Add a comment');
      // A comment form submitted anyway.
      const form = viewSubmissionPayload({
        user: 'UGUEST',
        view: {
          type: 'modal',
          callback_id: 'answer_feedback_comment_form',
          private_metadata: JSON.stringify({ c: channel, t: answer.ts, th: threadTs }),
        },
        values: { comment: { comment_input: 'a guest opinion' } },
      });
      expect((await postInteraction(harness.appUrl, harness.signingSecret, form)).status).toBe(200);
      await harness.slack.waitFor(() => harness.slack.ephemerals(channel, 'UGUEST').length >= 2, {
        description: 'the second refusal',
      });

      // The positive signal: a member's 👎 after all that arrives, and is the only rating.
      await harness.react(channel, answer.ts, '-1', 'UBOB');
      await harness.slack.waitFor(() => harness.sim.feedback(sessionId)?.score === 0, {
        description: "the member's feedback",
      });
      expect(feedbackPosts()).toHaveLength(1);
      expect(harness.sim.feedback(sessionId)?.comment).toBeUndefined();
    });

    it('refuses /agent from a guest who carries the admin flag, or is listed in ADMIN_USER_IDS; a real admin passes', async () => {
      await startWithLogs({ env: { ADMIN_USER_IDS: 'UADMINLIST,UGUEST' } });
      expect(await command('disable', 'UGUESTADMIN')).toContain(guestWords);
      expect(await command('disable', 'UGUEST')).toContain(guestWords);
      expect(harness.sim.requests).toHaveLength(0);
      expect(await command('disable', 'UADMIN')).toContain('is now *disabled*');
      expect(harness.sim.requests.map((request) => request.path)).toEqual([
        expect.stringMatching(/\/disable$/),
      ]);
    });

    it('with ALLOW_GUESTS=true answers a guest, who still is no Slack admin; other organisations stay out', async () => {
      await startWithLogs({ env: { ALLOW_GUESTS: 'true' } });
      const { channel, threadTs } = await mentionAs('UGUEST', `why? ${quick('Guests welcome.')}`, {
        channel: 'C0GENERAL',
        team: APP_TEAM,
      });
      await harness.waitForOutcome(channel, threadTs);
      expect(harness.visibleText(answers(channel, threadTs)[0] as never)).toContain('Guests welcome.');
      expect(await command('disable', 'UGUESTADMIN')).toMatch(/^Only admins/);
      expect(harness.sim.requests.filter((request) => request.path.endsWith('/disable'))).toHaveLength(0);
      const outsider = await mentionAs('UEXTERNAL', `hi ${quick('no')}`, {
        team: OTHER_ORG,
        envelope: createdByOtherOrg,
      });
      const refusal = await harness.slack.waitFor(
        () => harness.slack.ephemerals(outsider.channel, 'UEXTERNAL')[0],
      );
      expect(harness.visibleText(refusal as never)).toContain(
        "only answer people from this workspace's organisation",
      );
      expect(harness.sim.runs()).toHaveLength(1);
    });
  });
});
