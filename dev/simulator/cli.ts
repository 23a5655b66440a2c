/**
 * Runs the simulator on its own: `npm run simulator -- [options]` (`--help` lists them). Prints the
 * URL, tokens and agent ids; SIGINT/SIGTERM close it.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SIM_SCRIPT, SIM_AGENTS, SIM_TOKENS, type SimOutcome, startSimulator } from './index.js';

function intOption(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer, not "${String(raw)}"\n`);
    process.exit(2);
  }
  return n;
}

/** The `--help` text. */
const USAGE = `Usage: npm run simulator -- [options]

Runs the agent-service simulator (the fake service the tests and the sandbox use) on its own.
Point the bot at it with AGENT_API_URL=http://127.0.0.1:<port> and one of the tokens it prints.

Options:
  --port <n>                 port to listen on (default 8787; 0: any free port)
  --host <addr>              address to listen on (default 127.0.0.1)
  --long-poll-ms <n>         how long a status request waits for news
  --steps <n>                steps of each run without a [sim …] directive
  --step-ms <n>              milliseconds between steps
  --outcome <o>              done, error or canceled
  --stale-ms <n>             after a follow-up, show the previous turn's status this long
  --account-path-prefix <p>  serve the account endpoints under a prefix, e.g. /v1
  --region <r>               the region /v2/whoami reports
  --quiet                    no request log
  -h, --help                 this text`;

const OPTIONS = {
  port: { type: 'string', default: '8787' },
  host: { type: 'string', default: '127.0.0.1' },
  'long-poll-ms': { type: 'string' },
  steps: { type: 'string' },
  'step-ms': { type: 'string' },
  outcome: { type: 'string' },
  'stale-ms': { type: 'string' },
  'account-path-prefix': { type: 'string' },
  region: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Parses the command line; a wrong option prints the usage and exits 2 (not a stack trace). */
function readArgs() {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (error) {
    process.stderr.write(`simulator: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { values } = readArgs();
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const outcome = (values.outcome ?? DEFAULT_SIM_SCRIPT.outcome) as SimOutcome;
  if (!['done', 'error', 'canceled'].includes(outcome)) {
    process.stderr.write('--outcome must be done, error or canceled\n');
    process.exit(2);
  }
  const longPollMs = intOption(values, 'long-poll-ms');
  const staleMs = intOption(values, 'stale-ms');
  const sim = await startSimulator({
    port: intOption(values, 'port') ?? 8787,
    host: values.host,
    defaultScript: {
      steps: intOption(values, 'steps') ?? DEFAULT_SIM_SCRIPT.steps,
      stepMs: intOption(values, 'step-ms') ?? DEFAULT_SIM_SCRIPT.stepMs,
      outcome,
    },
    quiet: values.quiet,
    ...(longPollMs !== undefined && { longPollMs }),
    ...(staleMs !== undefined && { staleAfterFollowUpMs: staleMs }),
    ...(values['account-path-prefix'] !== undefined && { accountPathPrefix: values['account-path-prefix'] }),
    ...(values.region !== undefined && { region: values.region }),
  });
  const lines = [
    `agent-service simulator listening on ${sim.url}`,
    'tokens (x-api-token):',
    ...Object.entries(SIM_TOKENS).map(([kind, token]) => `  ${kind.padEnd(12)} ${token}`),
    'agents:',
    ...Object.entries(SIM_AGENTS).map(([kind, id]) => `  ${kind.padEnd(12)} ${id}`),
    'script a run with a directive in context.message, e.g. [sim steps=5 stepms=100 outcome=error size=60000]',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`simulator failed to start: ${String(error)}\n`);
  process.exit(1);
});
