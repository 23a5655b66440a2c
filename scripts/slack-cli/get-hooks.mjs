// The Slack CLI's `get-hooks` hook: which hooks this project implements. Ours, not
// @slack/cli-hooks', because ours differ: the manifest is YAML (manifest.yml, converted on the fly)
// and the bot is TypeScript that `start` compiles before it runs, as `npm start` does.
import { MESSAGE_BOUNDARIES } from './protocol.mjs';

const hook = (name) => `node scripts/slack-cli/${name}.mjs`;

process.stdout.write(
  `${JSON.stringify({
    hooks: {
      'get-manifest': hook('get-manifest'),
      start: hook('start'),
      deploy: hook('deploy'),
    },
    config: {
      watch: {
        // `slack run` restarts the bot when a source file changes, and reinstalls the app when the
        // manifest does.
        app: { 'filter-regex': '\\.ts$', paths: ['src'] },
        manifest: { paths: ['manifest.yml'] },
      },
      'protocol-version': [MESSAGE_BOUNDARIES],
      // The bot opens its own Socket Mode connection with the tokens the CLI hands to `start`.
      'sdk-managed-connection-enabled': true,
    },
    runtime: 'node',
  })}\n`,
);
