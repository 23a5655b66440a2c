import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { DEFAULT_BOT_USER_ID } from '../../dev/slack-standin/index.js';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * DESIGN "No previews": every bot post carrying service or alert data sets `unfurl_links: false`
 * and `unfurl_media: false` (a media preview makes Slack fetch the URL). The stand-in records
 * every Web API call: each kind of post is found there and its flags checked — answers, error
 * notices, alert cards, "fired again" replies, the DM quote and the note in the thread — and
 * then every `chat.postMessage` the bot made at all.
 */
const ALERTS = 'C0ALERTS';
const SHARED = 'C0SHARED';
const LINK = 'https://preview-bait.example/dashboard';

describe('no previews on posts carrying service or alert data', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('sets unfurl_links and unfurl_media false on every kind of post', async () => {
    harness = await startHarness({
      env: { ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN, ALERT_CHANNEL_ID: ALERTS },
      slack: {
        conversations: [
          { id: SHARED, is_ext_shared: true, members: ['UALICE', 'UEXT', DEFAULT_BOT_USER_ID] },
        ],
      },
    });
    const h = harness;
    const posts = () => h.slack.calls.filter((call) => call.method === 'chat.postMessage');
    const postIn = (channel: string, match: (text: string) => boolean) =>
      h.slack.waitFor(() =>
        posts().find((call) => call.args.channel === channel && match(JSON.stringify(call.args))),
      );
    // The Web client sends form fields: `false` arrives as the text "false".
    const expectNoPreviews = (call: { args: Record<string, unknown> }, kind: string) => {
      expect({ kind, links: String(call.args.unfurl_links), media: String(call.args.unfurl_media) }).toEqual({
        kind,
        links: 'false',
        media: 'false',
      });
    };

    // An answer carrying a link, and an error notice.
    const asked = await h.mention(
      `see? ${simDirective({ steps: 1, stepMs: 20, answer: `Look at ${LINK}` })}`,
    );
    await h.waitForOutcome('C0GENERAL', asked.threadTs);
    expectNoPreviews(await postIn('C0GENERAL', (text) => text.includes('agent_answer')), 'answer');
    const failed = await h.mention(`again? ${simDirective({ steps: 1, stepMs: 20, outcome: 'error' })}`);
    await h.waitForOutcome('C0GENERAL', failed.threadTs);
    expectNoPreviews(
      await postIn('C0GENERAL', (text) => text.includes('agent_notice') && text.includes(failed.threadTs)),
      'error notice',
    );

    // An alert card with a View in Explore link, its investigation's answer, then "fired again".
    const quick = simDirective({ steps: 1, stepMs: 20, answer: 'Verdict: fine.' });
    const first = await postAlert(h.appUrl, { body: alertBody({ alert_title: `CPU high ${quick}` }) });
    expect(first.json.outcome).toBe('investigating');
    expectNoPreviews(await postIn(ALERTS, (text) => text.includes('agent_alert')), 'alert card');
    await h.waitForOutcome(ALERTS, first.json.ts);
    expectNoPreviews(await postIn(ALERTS, (text) => text.includes('agent_answer')), 'investigation answer');
    const again = await postAlert(h.appUrl, { body: alertBody({ alert_title: `CPU high ${quick}` }) });
    expect(again.json.outcome).toBe('cooldown');
    expectNoPreviews(await postIn(ALERTS, (text) => /fired again/i.test(text)), 'fired again');

    // In a channel shared with another organisation: the DM quote, the note, the private answer.
    const shared = await h.mention(
      `here? ${LINK} ${simDirective({ steps: 1, stepMs: 20, answer: 'Private.' })}`,
      {
        channel: SHARED,
      },
    );
    const dm = h.slack.dmChannel('UALICE');
    expectNoPreviews(await postIn(dm, (text) => text.includes('preview-bait')), 'DM quote');
    expectNoPreviews(
      await postIn(SHARED, (text) => text.includes(shared.threadTs) && !text.includes('agent_answer')),
      'note in the thread',
    );
    expectNoPreviews(await postIn(dm, (text) => text.includes('agent_answer')), 'private answer');

    // A command reply carrying service data (the account the token belongs to).
    const whoami = await h.command('whoami', { channel: 'C0GENERAL' });
    const [reply] = await h.slack.waitFor(() => {
      const found = h.slack.responses(whoami.responseId);
      return found.length > 0 ? found : undefined;
    });
    expectNoPreviews({ args: reply ?? {} }, 'command reply');

    // And every chat.postMessage the bot made at all.
    const everyPost = posts();
    expect(everyPost.length).toBeGreaterThanOrEqual(8);
    for (const call of everyPost) expectNoPreviews(call, String(call.args.text).slice(0, 60));
  });
});
