import { existsSync } from 'node:fs';
import path from 'node:path';

/** What {@link loadEnvFile} did: the file it read, or where it looked and found none. */
export interface EnvFileResult {
  loaded: boolean;
  /** The absolute path of the `.env` it read or looked for. */
  path: string;
}

/**
 * Reads `.env` from the working directory into the environment when the file exists, with Node's
 * own parser (`process.loadEnvFile`, Node ≥ 20.12: no package). A variable already set in the
 * environment keeps its value — Node does not override it — so a deployment's environment always
 * wins over a file someone left behind. Called once by the entry point, before the config is read.
 */
export function loadEnvFile(directory: string = process.cwd()): EnvFileResult {
  const file = path.resolve(directory, '.env');
  if (!existsSync(file)) return { loaded: false, path: file };
  process.loadEnvFile(file);
  return { loaded: true, path: file };
}

/** The start-up line about `.env`, for the log and for a configuration error. */
export function envFileLine(result: EnvFileResult): string {
  return result.loaded
    ? `read ${result.path} (variables already set in the environment win over it)`
    : `no .env in ${path.dirname(result.path)}: using the environment only`;
}
