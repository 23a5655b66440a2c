import { LogLevel, type Logger as SlackLogger } from '@slack/bolt';
import pino from 'pino';
import type { Logger } from './runtime/logger.js';

/** JSON lines on stdout (pino); tokens are redacted from the fields that could hold one and from text. */
export function createLogger(options: { level: string; destination?: NodeJS.WritableStream }): Logger {
  return pino(
    {
      level: options.level,
      name: 'slack-agent-bridge',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: [
          'token',
          '*.token',
          'headers.authorization',
          '*.headers.authorization',
          'accountToken',
          '*.accountToken',
          'x-api-token',
          '*["x-api-token"]',
        ],
        censor: '[redacted]',
      },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? process.stdout,
  ) as unknown as Logger;
}

const SECRET_PATTERNS = [/xox[abposr]-[A-Za-z0-9-]+/g, /xapp-[A-Za-z0-9-]+/g];

/** Replaces Slack-token-shaped substrings; used on free-text log messages. */
function scrubSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, pattern) => out.replace(pattern, '[redacted]'), text);
}

/** Bolt and the Web client log through this adapter, so their lines are JSON (and scrubbed) too. */
export function toSlackLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack' });
  const textOf = (part: unknown) =>
    part instanceof Error ? part.message : typeof part === 'string' ? part : JSON.stringify(part);
  const text = (parts: unknown[]) => scrubSecrets(parts.map(textOf).join(' '));
  // The Web client writes several debug lines per call: with debug off (pino tells), skip the
  // joining and scrubbing too, not only the write.
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
