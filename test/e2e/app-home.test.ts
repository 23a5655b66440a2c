import { afterEach, describe, expect, it } from 'vitest';
import { SIM_AGENTS, simDirective } from '../../dev/simulator/index.js';
import { DEFAULT_BOT_USER_ID } from '../../dev/slack-standin/index.js';
import { DEFAULT_SUGGESTED_PROMPTS } from '../../src/config/load-config.js';
import { OUTSIDER_HOME } from '../../src/slack/views/home-view.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { homeTabOpenedEvent } from '../support/slack-events.js';

/** What the person reads on their Home tab now. */
function homeText(h: Harness, user: string): string {
  const home = h.slack.homeOf(user);
  return home ? h.visibleText({ blocks: home.blocks }) : '';
}

async function openHome(h: Harness, user: string) {
  const before = h.slack.homePublishes(user);
  await h.send(homeTabOpenedEvent({ user }));
  await h.slack.waitFor(() => h.slack.homePublishes(user) > before, {
    description: `${user}'s home published`,
  });
  return homeText(h, user);
}

describe('App Home', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('shows a person how to ask, the suggested prompts and their threads — nothing for admins', async () => {
    harness = await startHarness({ env: { HOME_REPUBLISH_SECONDS: '0.5' } });
    const h = harness;
    const empty = await openHome(h, 'UALICE');
    expect(empty).toContain('Ask the agent');
    for (const prompt of DEFAULT_SUGGESTED_PROMPTS) expect(empty).toContain(prompt.title);
    expect(empty).toContain('Nothing yet');
    expect(empty).not.toContain('For admins');

    const { channel, threadTs } = await h.mention(
      `why is checkout slow? ${simDirective({ steps: 1, stepMs: 20, answer: 'Locks.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    const text = await h.slack.waitFor(
      () => {
        const now = homeText(h, 'UALICE');
        return now.includes('answered') ? now : undefined;
      },
      { description: 'the home showing the answered thread', timeoutMs: 15_000 },
    );
    expect(text).toContain('why is checkout slow?');
    expect(text).toContain(`<#${channel}>`);
    // The thread links to its root message (Slack's permalink shape, from auth.test's url).
    expect(text).toContain(
      `https://standin-workspace.slack.com/archives/${channel}/p${threadTs.replace('.', '')}`,
    );
    // Bob asked nothing: his home has no thread of Alice's.
    expect(await openHome(h, 'UBOB')).toContain('Nothing yet');
  });

  it('publishes again after a thread changes, at most once per interval, coalescing changes', async () => {
    harness = await startHarness({ env: { HOME_REPUBLISH_SECONDS: '2' } });
    const h = harness;
    await openHome(h, 'UALICE');
    // Start and answer both come within an interval of the opening (or of the publish after the
    // start, on a slow machine): each publish after a change waits out the person's interval.
    const { channel, threadTs } = await h.mention(
      `quick one ${simDirective({ steps: 1, stepMs: 20, answer: 'Done.' })}`,
    );
    await h.waitForOutcome(channel, threadTs);
    await h.slack.waitFor(() => homeText(h, 'UALICE').includes('answered'), {
      description: 'the republished home',
      timeoutMs: 15_000,
    });
    const times = h.slack.calls
      .filter((call) => call.method === 'views.publish' && call.args.user_id === 'UALICE')
      .map((call) => call.at);
    // The opening, then one or two coalesced publishes (two only if the run outlived the interval).
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times.length).toBeLessThanOrEqual(3);
    // The bot spaces its publishes 2 s apart when it sends them; the stand-in sees them after each
    // request's own trip, which on a loaded machine differs by tens of milliseconds. Unthrottled,
    // they would come milliseconds apart.
    for (const [index, at] of times.slice(1).entries()) {
      expect(at - (times[index] ?? 0)).toBeGreaterThanOrEqual(1_500);
    }
  });

  it('shows an admin the connection, the agents, channel agents, watched channels and this week', async () => {
    harness = await startHarness();
    const h = harness;
    await h.command('channel use ops-agent', { user: 'UADMIN', channel: 'C0OPS' });
    await h.command('channel investigate on', { user: 'UADMIN', channel: 'C0ALERTS' });
    await h.command('channel answer-all on', { user: 'UADMIN', channel: 'C0ASK' });
    const { channel, threadTs } = await h.mention(
      `disk? ${simDirective({ steps: 2, stepMs: 20, answer: 'Full.' })}`,
      { user: 'UADMIN' },
    );
    const [answer] = await h.waitForOutcome(channel, threadTs);
    if (!answer) throw new Error('no answer');
    await h.clickFeedback(answer, true, { user: 'UADMIN' });
    // The rating is counted beside the click: open the home until it shows (bounded).
    let text = await openHome(h, 'UADMIN');
    for (let tries = 0; tries < 50 && !text.includes('1 of 1'); tries++) text = await openHome(h, 'UADMIN');
    expect(text).toContain('For admins');
    expect(text).toMatch(
      /`default` — account \*Production\* \(\d+\) · 127\.0\.0\.1:\d+ · :white_check_mark: healthy/,
    );
    expect(text).toContain(`\`${SIM_AGENTS.api}\` (default) — :large_green_circle: on`);
    expect(text).toContain('`ops-agent` (<#C0OPS>) — :white_circle: not seen yet');
    expect(text).toContain('<#C0OPS> → `ops-agent`');
    expect(text).toMatch(/\*Watched channels\*\n.*<#C0ALERTS>/);
    expect(text).toMatch(/\*Answer channels\*\n• <#C0ASK>/);
    expect(text).toMatch(
      /Runs: \*1\* · Answers: \*1\* · Feedback coverage: \*100% \(1 of 1 answered sessions rated\)\*/,
    );
  });

  it('shows an agent off once an admin disabled it with /agent', async () => {
    harness = await startHarness();
    const h = harness;
    const { responseId } = await h.command(`disable ${SIM_AGENTS.api}`, { user: 'UADMIN' });
    await h.slack.waitFor(() => h.slack.responses(responseId).length >= 1, {
      description: 'the command reply',
    });
    let text = await openHome(h, 'UADMIN');
    for (let tries = 0; tries < 50 && !text.includes(':red_circle:'); tries++)
      text = await openHome(h, 'UADMIN');
    expect(text).toContain(`\`${SIM_AGENTS.api}\` (default) — :red_circle: off (set by /agent`);
  });

  it('publishes an admin’s home again when /agent changes what it shows, not after a look-up', async () => {
    harness = await startHarness({ env: { HOME_REPUBLISH_SECONDS: '0.5' } });
    const h = harness;
    await openHome(h, 'UADMIN');
    const publishedAfter = async (text: string, user = 'UADMIN') => {
      const before = h.slack.homePublishes(user);
      const { responseId } = await h.command(text, { user, channel: 'C0OPS' });
      await h.slack.waitFor(() => h.slack.responses(responseId).length >= 1, {
        description: `/agent ${text}`,
      });
      return before;
    };
    let before = await publishedAfter('channel use ops-agent');
    await h.slack.waitFor(() => h.slack.homePublishes('UADMIN') > before, { description: 'the home again' });
    expect(homeText(h, 'UADMIN')).toContain('<#C0OPS> → `ops-agent`');

    before = await publishedAfter(`disable ${SIM_AGENTS.api}`);
    await h.slack.waitFor(() => h.slack.homePublishes('UADMIN') > before, { description: 'the home again' });
    // Recorded before the publish: the first home after the command shows the agent off.
    expect(homeText(h, 'UADMIN')).toContain(`\`${SIM_AGENTS.api}\` (default) — :red_circle: off`);

    // Commands that change nothing it shows publish nothing (waited out past the interval).
    before = await publishedAfter('channel');
    await publishedAfter('whoami');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(h.slack.homePublishes('UADMIN')).toBe(before);
  });

  it('counts an alert investigation in this week’s runs and answers, in nobody’s recent threads', async () => {
    harness = await startHarness({ env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN } });
    const h = harness;
    const quick = simDirective({ steps: 1, stepMs: 20, answer: 'Verdict: the disk is full.' });
    const posted = await postAlert(h.appUrl, {
      body: alertBody({ alert_title: `Disk full ${quick}` }),
      query: { channel: 'C0ALERTS' },
    });
    expect(posted.json.outcome).toBe('investigating');
    await h.waitForOutcome('C0ALERTS', posted.json.ts);
    let text = await openHome(h, 'UADMIN');
    for (let tries = 0; tries < 50 && !text.includes('Answers: *1*'); tries++)
      text = await openHome(h, 'UADMIN');
    expect(text).toMatch(/Runs: \*1\* · Answers: \*1\*/);
    // The bot asked: no home is published for it, and the admin's threads do not list the alert.
    expect(
      h.slack.calls.filter(
        (call) => call.method === 'views.publish' && call.args.user_id === DEFAULT_BOT_USER_ID,
      ),
    ).toEqual([]);
    expect(text).not.toContain('Disk full');
  });

  it('shows an outsider one sentence', async () => {
    harness = await startHarness();
    const h = harness;
    await openHome(h, 'UEXTERNAL');
    expect(h.slack.homeOf('UEXTERNAL')?.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: OUTSIDER_HOME } },
    ]);
  });
});
