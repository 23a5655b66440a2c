import { existsSync } from 'node:fs';
import path from 'node:path';

/** Reads `.env` from the working directory, if there; a variable already set keeps its value (it wins). */
export function loadEnvFile(directory: string = process.cwd()): { loaded: boolean; path: string } {
  const file = path.resolve(directory, '.env');
  if (!existsSync(file)) return { loaded: false, path: file };
  process.loadEnvFile(file);
  return { loaded: true, path: file };
}

/** The start-up line about `.env`, for the log and for a configuration error. */
export function envFileLine(result: ReturnType<typeof loadEnvFile>): string {
  return result.loaded
    ? `read ${result.path} (variables already set in the environment win over it)`
    : `no .env in ${path.dirname(result.path)}: using the environment only`;
}
