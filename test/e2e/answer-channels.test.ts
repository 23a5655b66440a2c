import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { DEFAULT_BOT_USER_ID, messageEvent, type SlackStandin } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { memoryLogger } from '../support/memory-log.js';

/**
 * DESIGN "Answer channels": `/agent channel answer-all on|off` (admins), then every new top-level
 * message by a person inside starts a run in its thread, no mention needed.
 */
const ASK = 'C0ASKOBS';
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
/** In every message the bot must leave alone: a run carrying it is a run too many. */
const IGNORED = 'MUST-NOT-RUN';

/** The reply's visible text (section blocks), once it came. */
function replyText(slack: SlackStandin, responseId: string): string | undefined {
  const [reply] = slack.responses(responseId);
  if (!reply) return undefined;
  const blocks = (reply.blocks ?? []) as Array<{ text?: { text?: string } }>;
  return blocks.map((block) => block.text?.text ?? '').join('\n') || reply.text || undefined;
}

describe('answer channels', () => {
  let harness: Harness;
  const log = memoryLogger('debug');
  beforeAll(async () => {
    harness = await startHarness({ logger: log.logger, env: { LOG_LEVEL: 'debug' } });
  });
  afterAll(async () => harness?.stop());
  afterEach(async () => {
    await harness.slack.waitFor(() => harness.sim.runs().every((run) => run.status !== 'loading'));
    harness.sim.reset();
  });

  async function command(text: string, user = 'UADMINLIST', channel = ASK) {
    const posted = await harness.command(text, { channel, user });
    expect(posted.status).toBe(200);
    return harness.slack.waitFor(() => replyText(harness.slack, posted.responseId), {
      description: `the reply to /agent ${text}`,
    });
  }

  /** A person's plain top-level message (no mention), as Slack records and delivers it. */
  async function post(text: string, user = 'UALICE', channel = ASK) {
    const sent = await harness.reply(text, { channel, user, threadTs: undefined as unknown as string });
    expect(sent.response.status).toBe(200);
    return sent.ts;
  }

  /** A mention elsewhere, answered: the positive signal that the bot has handled what came before. */
  async function settle() {
    const other = await harness.mention(`are you there? ${quick('Yes.')}`, { channel: 'C0OTHER' });
    await harness.waitForOutcome('C0OTHER', other.threadTs);
  }

  it('is switched by admins only, audited, and shown by /agent channel', async () => {
    expect(await command('channel')).toContain('Only messages that mention the bot start a run here');
    expect(await command('channel answer-all on', 'UALICE')).toContain('Only admins');
    expect(await command('channel answer-all on')).toContain('is now answered in its thread');
    expect(await command('channel')).toContain('Every new top-level message people post here is answered');
    expect(await command('channel answer-all sometimes')).toContain('is not `on` or `off`');
    const audits = log
      .records()
      .filter((record) => record.audit === true && record.subcommand === 'channel-answer-all');
    expect(audits.map(({ user, on, result, outcome }) => ({ user, on, result, outcome }))).toEqual([
      { user: 'UALICE', on: true, result: 'refused', outcome: 'refused' },
      { user: 'UADMINLIST', on: true, result: 'ok', outcome: 'channel-answer-all' },
      { user: 'UADMINLIST', on: undefined, result: 'refused', outcome: 'usage' },
    ]);
    // A non-admin's attempt changed nothing: the channel was off until the admin switched it.
    expect(audits[1]).toMatchObject({ wasOn: false });
  });

  it('answers a plain top-level message in its thread, once across retries', async () => {
    await command('channel answer-all on');
    const ts = await post(`why did checkout slow down? ${quick('A deploy at 09:58.')}`);
    await harness.send(messageEvent({ channel: ASK, user: 'UALICE', text: 'x', ts }), { retryNum: 1 });
    const [answer] = await harness.waitForOutcome(ASK, ts);
    expect(harness.visibleText(answer as never)).toContain('A deploy at 09:58.');
    expect(answer?.thread_ts).toBe(ts);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.prompts[0]).toContain('why did checkout slow down?');
  });

  it('takes a file shared with a plain top-level message as context', async () => {
    await command('channel answer-all on');
    const file = harness.slack.shareFile({ name: 'deploy.log', content: '09:58 deployed v42' });
    const asked = await harness.share(`is v42 to blame? ${quick('Likely.')}`, [file], { channel: ASK });
    const [answer] = await harness.waitForOutcome(ASK, asked.ts);
    expect(harness.sim.runs()[0]?.contexts[0]?.additionalContext).toContain(
      'File “deploy.log”:\n```\n09:58 deployed v42',
    );
    expect(harness.visibleText(answer as never)).toContain('Sent to the agent: `deploy.log`');
  });

  it('starts exactly one run for a top-level message that also mentions the bot', async () => {
    await command('channel answer-all on');
    const mention = await harness.mention(`and now? ${quick('Still fine.')}`, { channel: ASK });
    await harness.waitForOutcome(ASK, mention.threadTs);
    await settle();
    expect(harness.sim.runs().filter((run) => run.prompts[0]?.includes('and now?'))).toHaveLength(1);
  });

  it("leaves bots, integrations, edits, other threads' replies and outsiders alone; replies in its threads are follow-ups", async () => {
    await command('channel answer-all on');
    const asked = await post(`first question ${quick('First answer.')}`);
    await harness.waitForOutcome(ASK, asked);
    // A reply in the bot's thread: a follow-up of the same session, as anywhere.
    await harness.reply(`and the follow-up ${quick('Second answer.')}`, { channel: ASK, threadTs: asked });
    await harness.waitForOutcome(ASK, asked, 2);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.sim.runs()[0]?.prompts).toHaveLength(2);

    const integration = harness.slack.recordBotMessage({ channel: ASK, text: `deploy finished ${IGNORED}` });
    await harness.send({ ...integration, channel_type: 'channel', event_ts: integration.ts });
    const people = harness.slack.recordUserMessage({ channel: ASK, user: 'UBOB', text: 'a thread of ours' });
    await harness.reply(`a reply among people ${IGNORED}`, {
      channel: ASK,
      user: 'UALICE',
      threadTs: people.ts,
    });
    await harness.send(
      messageEvent({
        channel: ASK,
        user: 'UALICE',
        subtype: 'message_changed',
        extra: { message: { user: 'UALICE', text: `edited ${IGNORED}`, ts: asked } },
      }),
    );
    // A file dropped in without a word asks nothing: no run, and no "empty message" notice either.
    const shot = harness.slack.shareFile({ name: 'graph.png', content: Buffer.from([0x89, 0x50]) });
    const dropped = await harness.share('', [shot], { channel: ASK });
    const outsider = harness.slack.recordUserMessage({
      channel: ASK,
      user: 'UEXTERNAL',
      user_team: 'T0OTHERORG',
      text: `let me in ${IGNORED}`,
    });
    await harness.send(
      messageEvent({
        channel: ASK,
        user: 'UEXTERNAL',
        user_team: 'T0OTHERORG',
        text: outsider.text,
        ts: outsider.ts,
      }),
    );
    await harness.slack.waitFor(() =>
      log
        .records()
        .find((r) => r.msg === 'message from outside the organisation refused' && r.ts === outsider.ts),
    );
    await settle();
    expect(harness.sim.runs().filter((run) => run.prompts.some((p) => p.includes(IGNORED)))).toEqual([]);
    // The outsider did not address the bot: nothing is said to them either.
    expect(harness.slack.ephemerals(ASK, 'UEXTERNAL')).toEqual([]);
    expect(harness.slack.ephemerals(ASK, 'UALICE')).toEqual([]);
    for (const root of [integration.ts, people.ts, outsider.ts, dropped.ts]) {
      expect(harness.slack.messages(ASK, root).filter((m) => m.user === DEFAULT_BOT_USER_ID)).toEqual([]);
    }
  });

  it('off: a plain message is not answered, a mention still is', async () => {
    expect(await command('channel answer-all off')).toContain('no longer');
    const ts = await post(`anyone? ${IGNORED}`);
    await settle();
    expect(harness.sim.runs().some((run) => run.prompts[0]?.includes(IGNORED))).toBe(false);
    expect(harness.sim.runs()).toHaveLength(1);
    expect(harness.slack.messages(ASK, ts).filter((m) => m.user === DEFAULT_BOT_USER_ID)).toEqual([]);
    expect(await command('channel')).toContain('Only messages that mention the bot');
  });
});
