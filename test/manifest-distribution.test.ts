import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../src/slack/installations/bot-scopes.js';
import { INSTALL_PATH, REDIRECT_PATH } from '../src/slack/installations/oauth-setup.js';

/**
 * The distribution variant of manifest.yml (DESIGN "Many workspaces"), printed by
 * `npm run manifest -- --distribution --url https://HOST`, kept in step with the code: the redirect
 * URL is the path Bolt's installer serves, and an OAuth install asks for the manifest's scopes.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const source = parse(readFileSync(`${ROOT}manifest.yml`, 'utf8'));

function manifestCli(...args: string[]) {
  const run = spawnSync(process.execPath, ['scripts/manifest.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('manifest for distribution', () => {
  it('asks an OAuth install for exactly the manifest’s bot scopes', () => {
    expect([...BOT_SCOPES].sort()).toEqual([...source.oauth_config.scopes.bot].sort());
  });

  it('subscribes to the events that forget an installation', () => {
    expect(source.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining(['app_uninstalled', 'tokens_revoked']),
    );
  });

  it('--distribution adds the redirect URL the installer serves and org-wide install, nothing else', () => {
    const run = manifestCli('--distribution', '--url', 'https://bot.example.com', '--json');
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(REDIRECT_PATH).toBe('/slack/oauth_redirect');
    expect(INSTALL_PATH).toBe('/slack/install');
    expect(printed.oauth_config.redirect_urls).toEqual([`https://bot.example.com${REDIRECT_PATH}`]);
    expect(printed.settings.org_deploy_enabled).toBe(true);
    const http = JSON.parse(manifestCli('--url', 'https://bot.example.com', '--json').stdout);
    delete printed.oauth_config.redirect_urls;
    printed.settings.org_deploy_enabled = http.settings.org_deploy_enabled;
    expect(printed).toEqual(http);
  });

  it('refuses --distribution without a public https address', () => {
    const run = manifestCli('--distribution');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--url https://HOST');
  });
});
