import { parseArgs } from 'node:util';
import type { OutsiderPolicy } from '../../src/conversation/access/answer-place.js';

/** What `npm run sandbox -- …` was asked for. */
export interface SandboxArgs {
  /** Steps of a turn without a `[sim …]` directive. Default 3. */
  steps: number;
  /** Milliseconds between those steps. Default 400. */
  stepMs: number;
  /** Show the bot's logs on stderr instead of writing them to a file. */
  verbose: boolean;
  /** The bot's log level. Default `info` (`debug` with --verbose). */
  logLevel: string;
  /** The bot's `OUTSIDER_AUDIENCE`: what it does once `/shared` makes the channel Slack Connect. Default `dm`. */
  outsiderAudience: OutsiderPolicy;
  /** Install the app first, through its install page in a browser (OAuth distribution). */
  oauth: boolean;
  help: boolean;
}

/** The result of {@link parseSandboxArgs}: the arguments, or why they were refused. */
export type SandboxArgsResult = { ok: true; args: SandboxArgs } | { ok: false; error: string };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const OUTSIDER_POLICIES: readonly OutsiderPolicy[] = ['dm', 'thread', 'refuse'];

/** The `--help` text. */
export const SANDBOX_USAGE = `Usage: npm run sandbox [-- options]

Runs the bot locally against a simulated agent service and a Slack stand-in, with a chat in this
terminal. Pipe lines in to run a script: printf 'why are errors up?\\n:+1:\\n' | npm run sandbox

Options:
  --steps <n>        steps of each answer without a [sim …] directive (default 3)
  --step-ms <ms>     milliseconds between steps (default 400)
  --verbose          show the bot's logs here (stderr) instead of in a file
  --log-level <lvl>  the bot's log level: ${LOG_LEVELS.join(', ')} (default info)
  --outsider-audience <policy>
                     the bot's OUTSIDER_AUDIENCE once /shared shares the channel with another
                     organisation: ${OUTSIDER_POLICIES.join(', ')} (default: $OUTSIDER_AUDIENCE, else dm)
  --oauth            try the install flow: the bot runs as a distributed app (OAuth) and the sandbox
                     prints its install page to open in a browser; the chat starts once installed
  -h, --help         this text`;

function intOption(name: string, value: string | undefined, fallback: number, max: number) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > max) throw new RangeError(`--${name} must be an integer 0..${max}`);
  return n;
}

/**
 * Parses the sandbox's command line (without `node` and the script). Pure: `env` is the sandbox's
 * environment, read for `OUTSIDER_AUDIENCE` only (the bot's own variable; the flag wins).
 */
export function parseSandboxArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): SandboxArgsResult {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        steps: { type: 'string' },
        'step-ms': { type: 'string' },
        verbose: { type: 'boolean', default: false },
        'log-level': { type: 'string' },
        'outsider-audience': { type: 'string' },
        oauth: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    const verbose = values.verbose === true;
    const logLevel = values['log-level'] ?? (verbose ? 'debug' : 'info');
    if (!LOG_LEVELS.includes(logLevel))
      throw new RangeError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
    const flag = values['outsider-audience'];
    const outsiderAudience = (flag ?? env.OUTSIDER_AUDIENCE ?? 'dm') as OutsiderPolicy;
    if (!OUTSIDER_POLICIES.includes(outsiderAudience))
      throw new RangeError(
        `${flag === undefined ? 'OUTSIDER_AUDIENCE' : '--outsider-audience'} must be one of ${OUTSIDER_POLICIES.join(', ')}`,
      );
    return {
      ok: true,
      args: {
        steps: intOption('steps', values.steps, 3, 10_000),
        stepMs: intOption('step-ms', values['step-ms'], 400, 3_600_000),
        verbose,
        logLevel,
        outsiderAudience,
        oauth: values.oauth === true,
        help: values.help === true,
      },
    };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
