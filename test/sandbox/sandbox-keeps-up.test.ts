import { afterEach, describe, expect, it } from 'vitest';
import { RATE_USAGE } from '../../dev/sandbox/input-line.js';
import { createSandboxSession, NOTHING_TO_STOP } from '../../dev/sandbox/sandbox-session.js';
import { SANDBOX_CHANNEL, type SandboxStack, startSandboxStack } from '../../dev/sandbox/sandbox-stack.js';
import { silentLogger } from '../../src/runtime/logger.js';
import { runSandbox } from '../support/run-sandbox.js';

/** Where `text` first appears in `output`; fails the test when it does not. */
function at(output: string, text: string): number {
  const index = output.indexOf(text);
  expect(index, `"${text}" in:\n${output}`).toBeGreaterThanOrEqual(0);
  return index;
}

describe('npm run sandbox keeps up with longer flows (piped)', () => {
  it('prints every part of a long answer, its buttons and its file before the next prompt; /stop, /rate and /agent channel read right', async () => {
    const run = await runSandbox(
      [
        'tell me everything [sim steps=1 stepms=50 size=30000]',
        '/stop',
        '/rate maybe',
        '/agent channel',
        'and then? [sim steps=1 stepms=50]',
        '',
      ].join('\n'),
      [],
      40_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    // 30,000 characters: three messages of at most 11,000, then the whole answer as a file, all
    // printed before the next line was sent.
    const next = at(out, 'you   › /stop');
    const answer = out.slice(at(out, 'you   › tell me everything'), next);
    expect(answer.match(/^agent › /gm)).toHaveLength(4);
    expect(at(answer, '[ 👍 ] [ 👎 ]')).toBeLessThan(
      at(answer, 'agent › 📎 answer.md (30.0 kB) uploaded in the thread'),
    );
    const file = at(out, '📎 answer.md');

    // The answer landed before /stop: there was nothing to stop, and it says so.
    expect(out).toContain(`/stop\n  · ${NOTHING_TO_STOP}`);
    expect(out).not.toContain('you pressed Stop');
    expect(out).toContain(`you   › /rate maybe\n  · ${RATE_USAGE}`);
    expect(out).not.toContain('not a sandbox command');
    expect(out).toContain('New threads in #sandbox use');
    expect(out).not.toContain('<#C0SANDBOX>');
    // The next question is still answered in the same thread, after all of the above.
    expect(at(out, 'You asked: and then?')).toBeGreaterThan(file);
  }, 45_000);

  it('says "looked at" once per answer: the receipt says the window, the footer does not repeat it', async () => {
    const run = await runSandbox('/alert Disk full on db-1\nwhy is this firing? [sim steps=1 stepms=50]\n');
    expect(run.code, run.stderr).toBe(0);
    const answer = run.stdout.slice(at(run.stdout, 'agent › Agent run complete'));
    expect(answer.match(/looked at/gi)).toHaveLength(1);
  });
});

describe('sandbox lines from another thread', () => {
  let stack: SandboxStack | undefined;
  afterEach(async () => stack?.stop());

  it('name the thread they belong to; the current thread goes unsaid', async () => {
    stack = await startSandboxStack({
      script: { steps: 1, stepMs: 50, outcome: 'done' },
      logger: silentLogger,
      logLevel: 'silent',
    });
    const { slack } = stack;
    const lines: string[] = [];
    const session = createSandboxSession(stack, { line: (text) => lines.push(text) });
    try {
      const slow = session.say('why is checkout slow? [sim steps=3 stepms=400 answer="Slow answer."]');
      await slack.waitFor(() => slack.messages(SANDBOX_CHANNEL.id).at(0), {
        description: 'the first question',
      });
      session.newThread();
      await Promise.all([slow, session.say('quick one [sim steps=1 stepms=50 answer="Quick answer."]')]);
      const text = lines.join('\n');
      expect(text).toMatch(
        /agent \(in thread "why is checkout slow\?"\) › Agent run complete[^\n]*\n\s+Slow answer\./,
      );
      expect(text).toMatch(/\nagent › Agent run complete[^\n]*\n\s+Quick answer\./);
    } finally {
      session.close();
    }
  });
});
