import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/logging.js';
import type { Logger } from '../../src/runtime/logger.js';

/** The bot's logger in the sandbox, and where its lines go. */
export interface BotLog {
  logger: Logger;
  /** A file path, or "stderr". */
  where: string;
  close(): Promise<void>;
}

/**
 * The bot's JSON log lines go to a file under the OS temp directory, so the terminal shows the
 * conversation only; with `verbose` they go to stderr instead.
 */
export function openBotLog(options: { verbose: boolean; level: string }): BotLog {
  if (options.verbose) {
    return {
      logger: createLogger({ level: options.level, destination: process.stderr }),
      where: 'stderr',
      close: async () => undefined,
    };
  }
  const where = join(tmpdir(), `slack-agent-bridge-sandbox-${process.pid}.log`);
  const file = createWriteStream(where, { flags: 'a' });
  // A bot handler still in flight at shutdown may log after the file closed: that line is lost,
  // the sandbox must not crash on it.
  file.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_STREAM_WRITE_AFTER_END') throw error;
  });
  return {
    logger: createLogger({ level: options.level, destination: file }),
    where,
    close: () => new Promise<void>((resolve) => file.end(() => resolve())),
  };
}
