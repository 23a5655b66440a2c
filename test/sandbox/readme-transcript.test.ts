import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * The README's sandbox session is a real one: the test pipes the same lines into the sandbox and
 * compares what it prints with the README, after normalising what differs from run to run (ports,
 * the log file's name, session ids, seconds) and dropping the native-status lines (their number
 * depends on how the step updates were coalesced).
 */

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's transcript block: its command line and what it shows. */
function readmeTranscript(): { input: string; shown: string } {
  const block = /```text\n\$ printf '([^']*)' \| npm run sandbox --silent\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error('README has no "$ printf … | npm run sandbox --silent" transcript');
  return { input: (block[1] as string).replaceAll('\\n', '\n'), shown: block[2] as string };
}

function normaliseTranscript(text: string): string {
  return text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:PORT')
    .replace(/\S*slack-agent-bridge-sandbox-\d+\.log/g, '$TMPDIR/slack-agent-bridge-sandbox-PID.log')
    .replace(/session [0-9a-f-]{36}|session SESSION-ID/g, 'session SESSION-ID')
    .replace(/took \d+ s/g, 'took N s')
    .split('\n')
    .filter((line) => !line.startsWith('  · (status) '))
    .join('\n')
    .trimEnd();
}

describe("the README's sandbox transcript", () => {
  it('is what the sandbox prints for the same input', async () => {
    const { input, shown } = readmeTranscript();
    expect(input).toContain('\n');
    // The README shows the native status the way a run does.
    expect(shown).toMatch(/^ {2}· \(status\) agent is working on it… step 1 · \d+ s$/m);
    const run = await runSandbox(input);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(normaliseTranscript(run.stdout)).toBe(normaliseTranscript(shown));
  });
});
