// How a hook answers the Slack CLI. With `--protocol=message-boundaries --boundary=X` (offered when
// get-hooks lists the protocol) the answer is wrapped in the boundary, so anything else a hook
// prints is not mistaken for it; without it, stdout is the answer and nothing else may be printed.
// https://github.com/slackapi/slack-cli/blob/main/.github/cli-sdk-specification.md
import { parseArgs } from 'node:util';

export const MESSAGE_BOUNDARIES = 'message-boundaries';

/** Writes `value` as the hook's JSON answer, in the protocol the CLI asked for. */
export function respond(value, argv = process.argv.slice(2)) {
  const { values } = parseArgs({
    args: argv,
    options: { protocol: { type: 'string' }, boundary: { type: 'string' } },
    strict: false,
  });
  const json = JSON.stringify(value);
  const bounded = values.protocol === MESSAGE_BOUNDARIES && typeof values.boundary === 'string';
  process.stdout.write(bounded ? `${values.boundary}${json}${values.boundary}\n` : `${json}\n`);
}
