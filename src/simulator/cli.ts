/**
 * Runs the simulator on its own: `npm run simulator -- --port 8787 [--host 127.0.0.1] [--long-poll-ms N] [--steps N
 * --step-ms N] [--outcome done|error|canceled] [--stale-ms N] [--account-path-prefix /v1] [--region R]`.
 * Prints the URL, tokens and agent ids; SIGINT/SIGTERM close it.
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
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
    },
  });
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
