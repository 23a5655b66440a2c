/**
 * The logger port: what the core sees of logging (logging.ts is its one adapter: pino, and Bolt's
 * logger interface over it). Never pass tokens; prompts only at debug.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): Logger;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/**
 * A logger that adds `bindings` to every line it writes, without making a child logger up front.
 * pino's `child()` serialises and redacts its bindings as it is made: two per turn cost more than
 * all the lines a turn logs at the default level, which are usually none. A line at a level that
 * is off costs one small object here and nothing in pino.
 */
export function boundLogger(parent: Logger, bindings: object): Logger {
  const at =
    (level: Level) =>
    (fields: object, message?: string): void =>
      parent[level]({ ...bindings, ...fields }, message);
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (more) => boundLogger(parent, { ...bindings, ...more }),
  };
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
