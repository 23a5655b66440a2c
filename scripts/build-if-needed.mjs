// `npm start` from a fresh clone must work with no other step: compile when dist/ is missing
// or older than any source file. The production image ships dist/ and never compiles.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const entry = 'dist/src/main.js';

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    const mtime = name.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

const stale = !existsSync(entry) || (existsSync('src') && newestMtime('src') > statSync(entry).mtimeMs);
if (stale) {
  console.error('building (dist/ is missing or older than src/)…');
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
