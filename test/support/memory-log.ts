import { Writable } from 'node:stream';
import { createLogger } from '../../src/logging.js';

/** The production logger (pino, JSON lines) writing to memory, and the lines it wrote, parsed. */
export function memoryLogger(level = 'info') {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '');
  const records = () => lines().map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger: createLogger({ level, destination: stream }), lines, records };
}
