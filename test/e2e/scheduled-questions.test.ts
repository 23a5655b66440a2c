import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import {
  channelSharedEvent,
  DEFAULT_BOT_USER_ID,
  type StoredMessage,
} from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { agentCommandReply } from '../support/command-reply.js';
import { createManualClock, type ManualClock } from '../support/manual-clock.js';
import { homeTabOpenedEvent } from '../support/slack-events.js';

/**
 * DESIGN "Scheduled questions", end to end on one replica: the schedule ticker runs on a manual
 * clock (the runs themselves on real time), so a test moves to the minute a schedule names and
 * waits for the round to finish — the ticker asleep again — before it looks.
 */
const TEAM = 'C0TEAM';
const SHARED = 'C0SHARED';
/** UADMIN is a workspace admin in Europe/London (UTC in November); UALICE a member. */
const ADMIN = 'UADMIN';
const START = Date.parse('2026-11-27T08:28:50Z');
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });

let harness: Harness;
let clock: ManualClock;

async function start(at = START): Promise<void> {
  clock = createManualClock(at);
  harness = await startHarness({
    scheduleClock: clock,
    slack: {
      conversations: [
        { id: SHARED, is_ext_shared: true, members: [ADMIN, 'UEXTERNAL', DEFAULT_BOT_USER_ID] },
      ],
    },
  });
  // The first round runs at start-up: it is over once the ticker sleeps.
  await roundDone();
}
afterEach(async () => harness?.stop());

function roundDone(): Promise<true> {
  return harness.slack.waitFor(() => clock.pendingSleepers() === 1, { description: 'a schedule round' });
}
/**
 * Moves schedule time by `ms` (at least one tick) and waits for the round it starts, which sees
 * the final time (`advance`, not `advanceAsync`, which would wake it at the tick's own time).
 */
async function round(ms: number): Promise<void> {
  clock.advance(ms);
  await roundDone();
}
const command = (text: string, user = ADMIN, channel = TEAM) =>
  agentCommandReply(harness, text, user, channel);
/** The bot's top-level scheduled questions in `channel`. */
const questionsIn = (channel: string): StoredMessage[] =>
  harness.slack
    .messages(channel)
    .filter(
      (message) => message.user === DEFAULT_BOT_USER_ID && message.text.startsWith('Scheduled question'),
    );
const idIn = (reply: string) => /Scheduled `([0-9a-f]{6})`/.exec(reply)?.[1] ?? '';
async function metric(result: string): Promise<number> {
  const text = await harness.bridge.metrics.render();
  const line = new RegExp(`^sab_schedule_occurrences_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text);
  return Number(line?.[1] ?? Number.NaN);
}

describe('scheduled questions', () => {
  it('asks at its minute, in its zone, answers in the thread, and once per occurrence', async () => {
    await start();
    const added = await command(
      `schedule add daily 08:30 what broke overnight since 18:00 yesterday? ${quick('Nothing broke.')}`,
    );
    expect(added).toContain('daily at 08:30 (Europe/London)');
    expect(added).toContain('next: Fri 2026-11-27 08:30 Europe/London');

    await round(30_000); // 08:29:20: not yet
    expect(questionsIn(TEAM)).toHaveLength(0);
    await round(40_000); // 08:30:00
    const [question] = await harness.slack.waitFor(() => questionsIn(TEAM).length === 1 && questionsIn(TEAM));
    expect(question?.text).toContain(`Scheduled question, added by <@${ADMIN}>: what broke overnight`);
    expect(question?.thread_ts ?? question?.ts).toBe(question?.ts);
    const [answer] = await harness.waitForOutcome(TEAM, question?.ts ?? '');
    expect(harness.visibleText(answer as never)).toContain('Nothing broke.');
    const [run] = harness.sim.runs();
    expect(run?.prompts[0]).toContain('what broke overnight');
    // The time range from the question's words, read at the schedule's time in its zone.
    expect(run?.contexts[0]?.timerange).toEqual({
      startTime: '2026-11-26T18:00:00Z',
      endTime: '2026-11-27T08:30:00Z',
    });
    expect(run?.contexts[0]?.additionalContext).toBeUndefined();
    const posted = harness.slack.calls.find(
      (call) => call.method === 'chat.postMessage' && String(call.args.text).startsWith('Scheduled question'),
    );
    expect([String(posted?.args.unfurl_links), String(posted?.args.unfurl_media)]).toEqual([
      'false',
      'false',
    ]);

    await round(20_000); // 08:30:20: the same occurrence is not asked again
    expect(questionsIn(TEAM)).toHaveLength(1);
    await round(24 * 60 * 60 * 1000 - 20_000); // the next day's 08:30
    await harness.slack.waitFor(() => questionsIn(TEAM).length === 2);
    expect(await metric('run')).toBe(2);
    expect(harness.sim.runs()).toHaveLength(2);
  });

  it('keeps the local time across a daylight-saving change: 08:30 BST, then 08:30 GMT', async () => {
    // London leaves summer time on Sunday 25 October 2026: 08:30 is 07:30 UTC before, 08:30 UTC after.
    await start(Date.parse('2026-10-24T07:29:00Z'));
    expect(await command('schedule add daily 08:30 how was the night?')).toContain(
      'next: Sat 2026-10-24 08:30 Europe/London',
    );
    await round(60_000); // Saturday 07:30 UTC
    await harness.slack.waitFor(() => questionsIn(TEAM).length === 1);
    await round(24 * 60 * 60_000); // Sunday 07:30 UTC is 07:30 GMT: not yet
    expect(questionsIn(TEAM)).toHaveLength(1);
    await round(60 * 60_000); // Sunday 08:30 UTC = 08:30 GMT
    await harness.slack.waitFor(() => questionsIn(TEAM).length === 2);
    expect(await command('schedule')).toContain('next: Mon 2026-10-26 08:30 Europe/London');
  });

  it('lists and removes; a removed schedule is not asked', async () => {
    await start();
    const id = idIn(await command(`schedule add weekdays 08:30 status of checkout? ${quick('Fine.')}`));
    const other = idIn(await command('schedule add mon,wed 09:15 and payments?'));
    const listed = await command('schedule');
    expect(listed).toContain(`\`${id}\` — weekdays at 08:30 (Europe/London), next: Fri 2026-11-27 08:30`);
    expect(listed).toContain(`\`${other}\` — mon, wed at 09:15 (Europe/London), next: Mon 2026-11-30 09:15`);
    expect(listed.indexOf(id)).toBeLessThan(listed.indexOf(other));
    // The admin's App Home lists the installation's schedules, each with its channel.
    const published = harness.slack.homePublishes(ADMIN);
    await harness.send(homeTabOpenedEvent({ user: ADMIN }));
    await harness.slack.waitFor(() => harness.slack.homePublishes(ADMIN) > published);
    const home = harness.visibleText({ blocks: harness.slack.homeOf(ADMIN)?.blocks ?? [] } as never);
    expect(home).toContain('Scheduled questions');
    expect(home).toMatch(new RegExp(`${id}.*weekdays at 08:30 \\(Europe/London\\)`));
    expect(home).toContain(other);

    expect(await command(`schedule remove ${id}`)).toContain(`Removed \`${id}\``);
    expect(await command(`schedule remove ${id}`)).toContain(`no scheduled question \`${id}\``);
    expect(await command('schedule')).not.toContain(id);
    await round(70_000); // 08:30:00
    expect(questionsIn(TEAM)).toHaveLength(0);
    expect(harness.sim.runs()).toHaveLength(0);
  });

  it('refuses non-admins, a channel outsiders can read, a bad time, and past SCHEDULES_PER_CHANNEL', async () => {
    await start();
    expect(await command('schedule add daily 08:30 hi', 'UALICE')).toContain('Only admins');
    expect(await command('schedule', 'UALICE')).toContain('Only admins');
    expect(await command('schedule add daily 08:30 what broke?', ADMIN, SHARED)).toContain(
      'People outside the organisation can read this channel',
    );
    expect(await command('schedule add daily 8.30 what broke?')).toContain('is not a 24-hour time');
    expect(await command('schedule add someday 08:30 what broke?')).toContain('is not `daily`');
    for (let n = 0; n < 10; n += 1)
      expect(await command(`schedule add daily 10:0${n % 10} q${n}`)).toContain('Scheduled');
    expect(await command('schedule add daily 11:00 one too many')).toContain(
      'already has 10 scheduled questions',
    );
    expect(await command('schedule', ADMIN, SHARED)).toContain('No scheduled questions');
  });

  it('skips an occurrence in a channel that became outsider-readable, and tells the adder', async () => {
    await start();
    await command('schedule add daily 08:30 anything new?');
    harness.slack.setConversation({
      id: TEAM,
      is_ext_shared: true,
      members: [ADMIN, 'UEXTERNAL', DEFAULT_BOT_USER_ID],
    });
    // Slack tells the bot, which forgets who read the channel (the audience cache).
    expect((await harness.send(channelSharedEvent(TEAM))).status).toBe(200);
    await round(70_000);
    const dm = harness.slack.dmChannel(ADMIN);
    const [notice] = await harness.slack.waitFor(
      () => harness.slack.messages(dm).length > 0 && harness.slack.messages(dm),
    );
    expect(notice?.text).toContain('was not asked at Fri 2026-11-27 08:30 Europe/London');
    expect(questionsIn(TEAM)).toHaveLength(0);
    expect(await metric('skipped')).toBe(1);
  });

  it('pauses a schedule whose channel the bot left, and tells its adder once', async () => {
    await start();
    const id = idIn(await command('schedule add daily 08:30 anything new?'));
    harness.slack.failNext('chat.postMessage', 'not_in_channel');
    await round(70_000);
    const dm = harness.slack.dmChannel(ADMIN);
    await harness.slack.waitFor(() => harness.slack.messages(dm).length === 1);
    expect(harness.slack.messages(dm)[0]?.text).toContain('paused: the bot is no longer in the channel');
    expect(await command('schedule')).toContain(`\`${id}\``);
    expect(await command('schedule')).toContain('paused: the bot is no longer in the channel');
    await round(24 * 60 * 60 * 1000); // the next day: paused, nothing asked, nobody told again
    expect(harness.slack.messages(dm)).toHaveLength(1);
    expect(questionsIn(TEAM)).toHaveLength(0);
    expect(await metric('failed')).toBe(1);
  });
});
