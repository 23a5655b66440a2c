import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertBody, postAlert, TEST_ALERT_TOKEN } from '../support/alert-webhook.js';
import { installThroughPages, type OAuthHarness, startOAuthHarness } from '../support/oauth-harness.js';

/**
 * DESIGN "Who may install": with INSTALL_TEAM_IDS set, an install from another workspace or org
 * ends on the failure page, before Bolt's installer stores anything.
 */
describe('INSTALL_TEAM_IDS (OAuth)', () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness({
      env: { INSTALL_TEAM_IDS: 'T0ALPHA', ALERT_WEBHOOK_TOKEN: TEST_ALERT_TOKEN },
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('ends an install from elsewhere on the failure page, keeping nothing', async () => {
    const refused = await installThroughPages(h, 'Beta');
    expect(refused.redirect.status).toBe(403);
    expect(refused.redirectHtml).toContain('limited to its own organisation');
    // Nothing was kept: the app does not know Beta.
    const alert = await postAlert(h.appUrl, {
      body: alertBody(),
      query: { team: 'T0BETA', channel: 'C0BETA' },
    });
    expect(alert.status).toBe(400);
    expect(alert.json.error).toMatch(/not installed in T0BETA/);

    const allowed = await installThroughPages(h, 'Alpha');
    expect(allowed.redirect.status, allowed.redirectHtml).toBe(200);
  });
});
