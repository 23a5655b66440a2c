import pino from 'pino';
import type { Logger } from './runtime/logger.js';

/**
 * JSON lines on stdout (pino). Token-shaped strings never reach a log line: the redaction
 * paths cover the fields that could carry one, and `scrubSecrets` is applied to free text.
 */
export function createLogger(options: {
  level: string;
  name?: string;
  destination?: NodeJS.WritableStream;
}): Logger {
  return pino(
    {
      level: options.level,
      name: options.name ?? 'slack-agent-bridge',
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
export function scrubSecrets(text: string): string {
  return SECRET_PATTERNS.reduce((out, pattern) => out.replace(pattern, '[redacted]'), text);
}

/** A logger that drops everything; for tests and tools that need a Logger. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
