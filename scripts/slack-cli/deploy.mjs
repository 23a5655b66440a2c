// The Slack CLI's `deploy` hook. `slack deploy` uploads apps to Slack's own infrastructure, which
// runs Deno workflow apps only; this bot runs where you run it. Say so instead of failing obscurely.
process.stderr.write(
  [
    'slack deploy does not apply to slack-agent-bridge: Slack hosts only Deno workflow apps.',
    'Run the bot yourself: `docker compose up` (two replicas on Redis) or the image from the Dockerfile;',
    'see "Production" in README.md. `slack run` remains the way to try it in a workspace.',
    '',
  ].join('\n'),
);
process.exit(1);
