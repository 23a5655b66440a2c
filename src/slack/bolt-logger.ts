import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import { scrubSecrets } from '../logging.js';
import type { Logger } from '../runtime/logger.js';

/**
 * Bolt and the Web client log through this adapter, so their lines are JSON too. Their free
 * text is scrubbed of token-shaped strings before it is written.
 */
export function toSlackLogger(logger: Logger, name = 'slack'): SlackLogger {
  const child = logger.child({ component: name });
  const text = (parts: unknown[]) =>
    scrubSecrets(
      parts
        .map((part) =>
          part instanceof Error ? part.message : typeof part === 'string' ? part : JSON.stringify(part),
        )
        .join(' '),
    );
  // The Web client writes several debug lines per call (bodies as JSON): with debug off, skip the
  // joining and scrubbing too, not only the write. pino tells; any other logger gets every line.
  const levels = child as Partial<{ isLevelEnabled(level: string): boolean }>;
  const enabled = (name: string) => levels.isLevelEnabled?.(name) ?? true;
  let level = LogLevel.INFO;
  return {
    debug: (...parts: unknown[]) => {
      if (enabled('debug')) child.debug({}, text(parts));
    },
    info: (...parts: unknown[]) => {
      if (enabled('info')) child.info({}, text(parts));
    },
    warn: (...parts: unknown[]) => child.warn({}, text(parts)),
    error: (...parts: unknown[]) => child.error({}, text(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
