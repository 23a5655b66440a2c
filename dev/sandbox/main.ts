/**
 * `npm run sandbox`: the simulator, a Slack stand-in, the real bot (startBot, as `npm start`
 * runs it, in HTTP mode on a free loopback port) and a chat in this terminal. No configuration.
 */
import { openBotLog } from './bot-log.js';
import { renderBanner } from './render-terminal.js';
import { showSuggestedPrompts } from './sandbox-agent-view.js';
import { parseSandboxArgs, SANDBOX_USAGE } from './sandbox-args.js';
import { installFirst } from './sandbox-install.js';
import { createSandboxSession } from './sandbox-session.js';
import { SANDBOX_CHANNEL, SANDBOX_USER, startSandboxStack } from './sandbox-stack.js';
import { type ChatResult, createTerminalChat } from './terminal-chat.js';

const EXIT_CODES: Record<ChatResult['reason'], number> = {
  'end-of-input': 0,
  quit: 0,
  interrupted: 130,
  failed: 1,
};

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseSandboxArgs(argv, process.env);
  if (!parsed.ok) {
    process.stderr.write(`sandbox: ${parsed.error}\n\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return 0;
  }
  const log = openBotLog({ verbose: args.verbose, level: args.logLevel });
  const script = { steps: args.steps, stepMs: args.stepMs, outcome: 'done' as const };
  const stack = await startSandboxStack({
    script,
    logger: log.logger,
    logLevel: args.logLevel,
    outsiderAudience: args.outsiderAudience,
    oauth: args.oauth,
  });
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const chat = createTerminalChat({ input: process.stdin, output: process.stdout, interactive });
  const installing = new AbortController();
  const onSignal = () => {
    installing.abort();
    chat.interrupt();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  chat.output.line(
    renderBanner({
      simulatorUrl: stack.sim.url,
      slackUrl: stack.slack.url,
      appUrl: stack.appUrl,
      channel: SANDBOX_CHANNEL.name,
      user: SANDBOX_USER.name,
      steps: args.steps,
      stepMs: args.stepMs,
      logs: log.where,
    }),
  );
  const installed = await installFirst(stack, chat.output, installing.signal).then(
    () => true,
    (error: unknown) => {
      process.stderr.write(`sandbox: ${(error as Error).message}\n`);
      return false;
    },
  );
  if (!installed) {
    await stack.stop();
    await log.close();
    return installing.signal.aborted ? EXIT_CODES.interrupted : EXIT_CODES.failed;
  }
  await showSuggestedPrompts(stack, chat.output);
  // `npm run` starts scripts in the package's folder; /file paths are the person's, from where they typed.
  const workingDir = process.env.INIT_CWD || process.cwd();
  const session = createSandboxSession(stack, chat.output, { workingDir });
  const result = await chat.run(session);
  session.close();
  if (result.error) process.stderr.write(`sandbox: ${result.error}\n`);
  chat.output.line(result.reason === 'interrupted' ? '\nstopping…' : 'stopping…');
  await stack.stop();
  await log.close();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return EXIT_CODES[result.reason];
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Everything is stopped; a handle left open by a library must not keep the sandbox alive.
    setTimeout(() => process.exit(code), 2_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`sandbox: could not start: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
