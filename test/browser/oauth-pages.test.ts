import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OAuthHarness, startOAuthHarness } from '../support/oauth-harness.js';
import { chromiumAvailable, launchChromium } from './chromium.js';

const hasChromium = chromiumAvailable();

/**
 * The install pages in a real browser (DESIGN "Many workspaces"): a person opens /slack/install,
 * follows "Add to Slack" to Slack's authorize page (the stand-in's), allows the app in a workspace
 * and lands on the success page — the state cookie set by the install page makes the round trip in
 * the browser itself. A link with another state lands on the failure page.
 */
describe.skipIf(!hasChromium)('install pages in Chromium', () => {
  let h: OAuthHarness;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;

  beforeAll(async () => {
    h = await startOAuthHarness();
    browser = await launchChromium();
    context = browser.context;
  });
  afterAll(async () => {
    await browser?.close();
    await h?.stop();
  });

  /** What a screen reader announces first: the language, the title and the one heading. */
  async function outline(page: Page) {
    return {
      lang: await page.locator('html').getAttribute('lang'),
      title: await page.title(),
      headings: await page.getByRole('heading', { level: 1 }).allInnerTexts(),
    };
  }

  it('installs through the pages: Add to Slack, allow in a workspace, success', async () => {
    const page = await context.newPage();
    const install = await page.goto(`${h.appUrl}/slack/install`);
    expect(install?.status()).toBe(200);
    expect(await outline(page)).toEqual({
      lang: 'en',
      title: 'Add the agent bot to Slack',
      headings: ['Add the agent bot to Slack'],
    });
    const addToSlack = page.getByRole('link', { name: 'Add to Slack' });
    const href = new URL((await addToSlack.getAttribute('href')) ?? '');
    expect(`${href.origin}${href.pathname}`).toBe(h.slack.authorizeUrl);
    const state = href.searchParams.get('state');
    const cookies = await context.cookies(h.appUrl);
    expect(cookies.find((cookie) => cookie.name === 'slack-app-oauth-state')?.value).toBe(state);

    await addToSlack.click();
    await page.waitForURL((url) => url.href.startsWith(h.slack.authorizeUrl));
    await page.getByRole('link', { name: 'Allow in Alpha' }).click();
    await page.waitForURL((url) => url.pathname === '/slack/oauth_redirect');
    expect(await outline(page)).toEqual({
      lang: 'en',
      title: 'The agent bot is installed',
      headings: ['The agent bot is installed'],
    });
    expect(await page.locator('main').innerText()).toContain('It is installed in Alpha.');
    // The state cookie is spent.
    expect((await context.cookies(h.appUrl)).find((c) => c.name === 'slack-app-oauth-state')).toBeUndefined();
    await page.close();
  });

  it('shows the failure page for a link with another state, and a way to start again', async () => {
    const page = await context.newPage();
    await page.goto(`${h.appUrl}/slack/install`);
    await page.getByRole('link', { name: 'Add to Slack' }).click();
    await page.waitForURL((url) => url.href.startsWith(h.slack.authorizeUrl));
    const allow = new URL(
      (await page.getByRole('link', { name: 'Allow in Beta' }).getAttribute('href')) ?? '',
    );
    allow.searchParams.set('state', 'a-state-from-another-browser');
    const failed = await page.goto(allow.toString());
    expect(failed?.status()).toBe(400);
    expect(await outline(page)).toEqual({
      lang: 'en',
      title: 'The agent bot was not installed',
      headings: ['The agent bot was not installed'],
    });
    expect(await page.locator('main').innerText()).toContain(
      'The install link has expired or was opened in another browser',
    );
    await page.getByRole('link', { name: 'Start the installation again' }).click();
    await page.waitForURL((url) => url.pathname === '/slack/install');
    expect((await outline(page)).headings).toEqual(['Add the agent bot to Slack']);
    expect(h.slack.oauth?.tokensOf('T0BETA')).toEqual([]);
    await page.close();
  });

  it('says the installation was cancelled when the person cancels on Slack’s page', async () => {
    const page = await context.newPage();
    await page.goto(`${h.appUrl}/slack/install`);
    await page.getByRole('link', { name: 'Add to Slack' }).click();
    await page.waitForURL((url) => url.href.startsWith(h.slack.authorizeUrl));
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/slack/oauth_redirect');
    expect((await outline(page)).headings).toEqual(['The agent bot was not installed']);
    expect(await page.locator('main').innerText()).toContain(
      'The installation was cancelled on Slack’s page.',
    );
    await page.close();
  });
});
