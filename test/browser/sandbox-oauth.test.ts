import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/child-bot.js';
import { repoRoot } from '../support/run-sandbox.js';
import { chromiumAvailable, launchChromium } from './chromium.js';

const hasChromium = chromiumAvailable();

/**
 * `npm run sandbox -- --oauth` as a person tries it: the sandbox prints its install page, the
 * person opens it in a browser, clicks "Add to Slack" and "Allow" on the stand-in's authorize page,
 * lands on the success page, and then asks a question in the terminal. With OAuth the stand-in
 * accepts only the tokens its `oauth.v2.access` issued, so an answer in the chat is one the bot
 * posted as the newly installed workspace.
 */
describe.skipIf(!hasChromium)('npm run sandbox -- --oauth in Chromium', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let child: ChildProcessWithoutNullStreams | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await browser?.close();
  });

  it('prints the install URL; installing in the browser lets the chat ask as that workspace', async () => {
    const { OUTSIDER_AUDIENCE: _policy, ...env } = process.env;
    const sandbox = spawn(process.execPath, ['--import', 'tsx', 'dev/sandbox/main.ts', '--oauth'], {
      cwd: repoRoot,
      env,
    });
    child = sandbox;
    let stdout = '';
    let stderr = '';
    sandbox.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    sandbox.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => sandbox.once('exit', resolve));

    const installUrl = await waitUntil(
      () => /open (http:\/\/127\.0\.0\.1:\d+\/slack\/install) in a browser/.exec(stdout)?.[1],
      {
        timeoutMs: 20_000,
        description: `the install URL in:\n${stdout}${stderr}`,
      },
    );
    // Nothing is asked before the app is installed.
    expect(stdout).not.toContain('Ask away');

    const page = await browser.context.newPage();
    await page.goto(installUrl);
    await page.getByRole('link', { name: 'Add to Slack' }).click();
    await page.getByRole('link', { name: 'Allow in Sandbox Co' }).click();
    await page.waitForURL((url) => url.pathname === '/slack/oauth_redirect');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('The agent bot is installed');
    const success = await page.locator('main').innerText();
    expect(success).toContain('It is installed in Sandbox Co.');
    expect(success).toContain('/invite @slack-agent-bridge');
    await page.close();

    await waitUntil(() => stdout.includes('installed in Sandbox Co (T0TEST)'), {
      timeoutMs: 10_000,
      description: `the installed line in:\n${stdout}${stderr}`,
    });
    sandbox.stdin.end('why are errors up? [sim steps=1 stepms=50 answer="Answered for Sandbox Co."]\n');
    // The browser still holds its connections to the bot: the sandbox stops all the same.
    expect(await exited, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/agent › Agent run complete[^\n]*\n\s+Answered for Sandbox Co\./);
    // The order a person sees: the URL, the installation, then the chat.
    const order = [
      '/slack/install in a browser',
      'installed in Sandbox Co',
      'you   › why are errors up?',
    ].map((text) => stdout.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 60_000);
});
