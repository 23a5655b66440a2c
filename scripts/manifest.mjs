// manifest.yml is the one source of the Slack app's manifest. This prints it ready to paste or to
// hand to the Slack CLI, so nobody edits a copy by hand:
//   node scripts/manifest.mjs --socket-mode          Socket Mode: no request URLs (what `slack run` uses)
//   node scripts/manifest.mjs --url https://bot.example.com   HTTP mode with the bot's public address
//   node scripts/manifest.mjs --distribution --url https://bot.example.com
//                                                    OAuth distribution: redirect URL, org-wide install
//   add --json for JSON instead of YAML.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';

const MANIFEST_PATH = fileURLToPath(new URL('../manifest.yml', import.meta.url));
/** The placeholder manifest.yml carries where the bot's public address goes. */
export const PLACEHOLDER_BASE = 'https://YOUR-HOST';

/** What stderr says when no flag replaced the placeholder host. */
export const PLACEHOLDER_HINT = [
  "manifest: YOUR-HOST in this manifest is a placeholder for the bot's public https address. Run one of:",
  '  npm run manifest -- --url https://bot.example.com   HTTP mode: Slack calls https://bot.example.com/slack/events',
  '  npm run manifest -- --socket-mode                   Socket Mode: no public address (what `slack run` uses)',
  '  npm run manifest -- --distribution --url https://bot.example.com   many workspaces (OAuth)',
].join('\n');

/** manifest.yml, parsed. */
export function readManifest(path = MANIFEST_PATH) {
  return parse(readFileSync(path, 'utf8'));
}

/**
 * The Socket Mode variant: `socket_mode_enabled: true` and no request URLs (Slack refuses a Socket
 * Mode manifest that still names them, and they would point at the placeholder host anyway).
 */
export function socketModeManifest(manifest) {
  const copy = structuredClone(manifest);
  copy.settings.socket_mode_enabled = true;
  delete copy.settings.event_subscriptions?.request_url;
  delete copy.settings.interactivity?.request_url;
  for (const command of copy.features?.slash_commands ?? []) delete command.url;
  return copy;
}

/** The HTTP-mode variant with every request URL on `baseUrl` instead of the placeholder host. */
export function httpManifest(manifest, baseUrl) {
  const base = new URL(baseUrl);
  if (base.protocol !== 'https:')
    throw new Error(`Slack sends requests only to https:// addresses, not ${baseUrl}`);
  const origin = base.toString().replace(/\/+$/, '');
  const text = JSON.stringify(manifest).replaceAll(PLACEHOLDER_BASE, origin);
  return JSON.parse(text);
}

/** Where Bolt's installer takes Slack's redirect back (src/slack/installations/oauth-setup.ts). */
export const OAUTH_REDIRECT_PATH = '/slack/oauth_redirect';

/**
 * The distribution variant of an HTTP-mode manifest: Slack's redirect back to the bot after
 * "Add to Slack" (`oauth_config.redirect_urls`), and installable org-wide on Enterprise Grid
 * (`settings.org_deploy_enabled`). https://docs.slack.dev/enterprise-grid/developing-for-enterprise-grid
 */
export function distributionManifest(manifest, baseUrl) {
  const copy = httpManifest(manifest, baseUrl);
  const origin = new URL(baseUrl).origin;
  copy.oauth_config.redirect_urls = [`${origin}${OAUTH_REDIRECT_PATH}`];
  copy.settings.org_deploy_enabled = true;
  return copy;
}

function main() {
  const { values } = parseArgs({
    options: {
      'socket-mode': { type: 'boolean', default: false },
      url: { type: 'string' },
      distribution: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const source = readManifest();
  let manifest = source;
  if (values['socket-mode'] && values.url) throw new Error('choose --socket-mode or --url, not both');
  if (values['socket-mode']) manifest = socketModeManifest(source);
  if (values.distribution && !values.url)
    throw new Error('--distribution needs --url https://HOST (OAuth runs in HTTP mode)');
  if (values.url)
    manifest = values.distribution
      ? distributionManifest(source, values.url)
      : httpManifest(source, values.url);
  // Printed as it stands, the manifest points Slack at a host that does not exist: say so on
  // stderr, so `npm run manifest > app.yml` still gives the file.
  if (!values.url && !values['socket-mode']) process.stderr.write(`${PLACEHOLDER_HINT}\n`);
  process.stdout.write(values.json ? `${JSON.stringify(manifest, null, 2)}\n` : stringify(manifest));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`manifest: ${error.message}\n`);
    process.exit(2);
  }
}
