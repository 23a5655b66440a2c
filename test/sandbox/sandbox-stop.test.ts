import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxSession } from '../../dev/sandbox/sandbox-session.js';
import { SANDBOX_CHANNEL, type SandboxStack, startSandboxStack } from '../../dev/sandbox/sandbox-stack.js';
import { silentLogger } from '../../src/runtime/logger.js';

/** The sandbox's `/stop`: Stop pressed on the current thread's agent session, as Slack sends it. */
describe('sandbox /stop', () => {
  let stack: SandboxStack | undefined;
  afterEach(async () => stack?.stop());

  it('stops the run in the current thread: the note shows, the answer never does', async () => {
    stack = await startSandboxStack({
      script: { steps: 1, stepMs: 50, outcome: 'done' },
      logger: silentLogger,
      logLevel: 'silent',
    });
    const { slack } = stack;
    const lines: string[] = [];
    const session = createSandboxSession(stack, { line: (text) => lines.push(text) });
    try {
      const asked = session.say('dig deep [sim steps=10 stepms=300 answer="Unwanted answer."]');
      const root = await slack.waitFor(() => slack.messages(SANDBOX_CHANNEL.id).at(0), {
        description: 'the question',
      });
      await slack.waitFor(() => slack.agentSessions.showsStop(SANDBOX_CHANNEL.id, root.ts), {
        description: 'Stop shown',
      });
      await session.stop();
      await asked;
      const text = lines.join('\n');
      expect(text).toContain('you pressed Stop on the thread');
      expect(text).toContain('Stopped. The agent may still finish on its side');
      expect(text).not.toContain('Unwanted answer.');
    } finally {
      session.close();
    }
  });

  it('says so when there is no thread to stop', async () => {
    stack = await startSandboxStack({
      script: { steps: 1, stepMs: 50, outcome: 'done' },
      logger: silentLogger,
      logLevel: 'silent',
    });
    const lines: string[] = [];
    const session = createSandboxSession(stack, { line: (text) => lines.push(text) });
    await session.stop();
    session.close();
    expect(lines.join('\n')).toContain('no thread to stop');
  });
});
