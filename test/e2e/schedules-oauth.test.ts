import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { createManualClock } from '../support/manual-clock.js';
import { oauthCommand } from '../support/oauth-command.js';
import {
  installThroughPages,
  type OAuthHarness,
  PEOPLE,
  startOAuthHarness,
  WORKSPACES,
} from '../support/oauth-harness.js';

/**
 * DESIGN "One installation, one tenant" for scheduled questions: Alpha and Beta both installed the
 * app and both see one shared channel. Each lists and removes only its own schedules there, and
 * each question is posted (and answered) with its own installation's token and bot.
 */
const SHARED = 'C0SHARED';
const START = Date.parse('2026-11-27T08:29:00Z');
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });

describe('scheduled questions per installation (OAuth)', () => {
  let h: OAuthHarness;
  const clock = createManualClock(START);
  beforeAll(async () => {
    h = await startOAuthHarness({
      scheduleClock: clock,
      env: { HOME_TEAM_IDS: 'T0ALPHA,T0BETA', ADMIN_USER_IDS: `${PEOPLE.a.id},${PEOPLE.b.id}` },
    });
    for (const place of ['Alpha', 'Beta']) {
      const flow = await installThroughPages(h, place);
      expect(flow.redirect.status, flow.redirectHtml).toBe(200);
    }
  });
  afterAll(async () => h?.stop());

  /** `/agent <text>` by Anna of Alpha or Ben of Beta in the shared channel; the reply's JSON. */
  const said = async (who: 'a' | 'b', text: string): Promise<string> =>
    JSON.stringify(
      await oauthCommand(h, { user: PEOPLE[who].id, team: PEOPLE[who].team_id, channel: SHARED }, text),
    );
  const idIn = (reply: string) => /Scheduled `([0-9a-f]{6})`/.exec(reply)?.[1] ?? '';

  it('keeps each installation’s schedules its own, and asks each with its own token', async () => {
    const alpha = idIn(await said('a', `schedule add daily 08:30 alpha asks ${quick('Alpha answer.')}`));
    expect(alpha).not.toBe('');
    expect(await said('b', 'schedule')).toContain('No scheduled questions');
    expect(await said('b', `schedule remove ${alpha}`)).toContain('no scheduled question');
    const beta = idIn(await said('b', `schedule add daily 08:30 beta asks ${quick('Beta answer.')}`));
    const alphaList = await said('a', 'schedule');
    expect(alphaList).toContain(alpha);
    expect(alphaList).not.toContain(beta);

    // The ticker is asleep (its first round is over) before its time moves to 08:30.
    await h.slack.waitFor(() => clock.pendingSleepers() === 1);
    clock.advance(60_000);
    const posts = await h.slack.waitFor(() => {
      const found = h.slack.calls.filter(
        (call) =>
          call.method === 'chat.postMessage' && String(call.args.text).startsWith('Scheduled question'),
      );
      return found.length === 2 ? found : undefined;
    });
    const byInstallation = Object.fromEntries(
      posts.map((call) => [call.team, String(call.args.text).includes('alpha asks') ? 'alpha' : 'beta']),
    );
    expect(byInstallation).toEqual({ T0ALPHA: 'alpha', T0BETA: 'beta' });
    // Each answer goes into its question's thread, as that installation's bot.
    const questions = h.slack.messages(SHARED).filter((m) => m.text.startsWith('Scheduled question'));
    for (const question of questions) {
      const answer = await h.waitForOutcome(SHARED, question.ts);
      const bot = question.text.includes('alpha asks') ? WORKSPACES.a.botUserId : WORKSPACES.b.botUserId;
      expect(answer.user).toBe(bot);
    }
    expect(h.sim.runs()).toHaveLength(2);
  });
});
