import { describe, expect, it } from 'vitest';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * `/schedule --now <question>` in the piped sandbox: the real `/agent schedule add daily <HH:MM>`
 * for the next minute, the bot's schedule clock moved there, and the question the bot then posts
 * at the top of #sandbox followed to its answer, before the next line runs.
 */

describe('/schedule in the sandbox', () => {
  it('adds a daily question for the next minute; with --now the bot posts it and answers in its thread', async () => {
    const run = await runSandbox(
      '/schedule --now what broke overnight?\n/quit\n',
      ['--steps', '1', '--step-ms', '50'],
      50_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/you type \/agent schedule add daily \d\d:\d\d what broke overnight\? in #sandbox/);
    // The bot's reply names the person's zone and the next run.
    expect(out).toMatch(
      /only you › Scheduled `[0-9a-f]{6}`: daily at (\d\d:\d\d) \(Europe\/London\) — next: \w{3} \d{4}-\d\d-\d\d \1 Europe\/London\./,
    );
    expect(out).toMatch(/--now moved the bot's schedule clock to \d\d:\d\d Europe\/London/);
    expect(out).toContain('agent (new thread) › Scheduled question, added by @you: what broke overnight?');
    // The thread's lines are labelled as that thread: its status, then its receipt and answer.
    expect(out).toMatch(/\(status in thread "what broke overnight\?"\) agent is working on it…/);
    expect(out).toMatch(
      /agent \(in thread "what broke overnight\?"\) › Agent run complete — 1 step · took \d+ s · time range: .*\n\s+\*\*Simulated answer \(turn 1\)\*\*\n\n\s+You asked: what broke overnight\?/,
    );
    const order = [
      'you   › /schedule',
      'only you › Scheduled',
      'Scheduled question, added by',
      'You asked:',
      'stopping…',
    ].map((text) => out.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 60_000);

  it('/schedule without a question says how it is used', async () => {
    const run = await runSandbox('/schedule --now\n/quit\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('/schedule needs a question: /schedule [--now] <question>');
  });
});
