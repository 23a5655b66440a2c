import { envFileLine, loadEnvFile } from './config/env-file.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { createLogger } from './logging.js';
import { startBot } from './start-bot.js';

/** Entry point: `.env` (if any) → loadConfig → startBot; exit 1 with a clear message if start-up fails. */
async function main(): Promise<void> {
  const envFile = loadEnvFile();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`slack-agent-bridge: ${error.message}\n`);
    process.stderr.write(
      envFile.loaded
        ? `(${envFileLine(envFile)})\n`
        : `No .env file in ${process.cwd()}: copy .env.example to .env and fill it in, or set these variables in the environment.\n`,
    );
    process.stderr.write('To try the bot without Slack or an agent service, run: npm run sandbox\n');
    process.exit(1);
  }
  const logger = createLogger({ level: config.logLevel });
  logger.info({ envFile: envFile.path, loaded: envFile.loaded }, envFileLine(envFile));
  try {
    const bridge = await startBot(config, { logger });
    const shutdown = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      bridge.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
    };
    for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => shutdown(signal));
  } catch (error) {
    logger.error({ err: error }, 'start-up failed');
    process.stderr.write(`slack-agent-bridge: start-up failed: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

void main();
