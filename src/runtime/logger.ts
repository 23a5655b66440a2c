/** The logger port (logging.ts is its pino adapter). Never pass tokens; prompts only at debug. */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(bindings: object): Logger;
}

/**
 * A logger that adds `bindings` to every line, without a child logger up front: pino's `child()`
 * serialises and redacts as it is made, which costs more than the (usually no) lines a turn logs.
 */
export function boundLogger(parent: Logger, bindings: object): Logger {
  const at =
    (level: Exclude<keyof Logger, 'child'>) =>
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
  child: () => silentLogger,
};
