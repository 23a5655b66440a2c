import { readFile, rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { WINDOW_PATTERN } from '../support/looked-at.js';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * `npm run sandbox` as a person pipes a script into it: the real entry point in a child process
 * (the simulator lives inside it, so the feedback check reads the line the sandbox prints from the
 * simulator's state).
 */

describe('npm run sandbox with piped input', () => {
  it('/home prints the Home tab the bot published: the thread just asked, and the admin part', async () => {
    const run = await runSandbox('why are errors up? [sim steps=2 stepms=50]\n/home\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("your App Home (the bot's Home tab):");
    expect(run.stdout).toMatch(
      /Your recent threads\n\s+═+\n\s+\*why are errors up\? \[sim steps=2 stepms=50\] \(https:\/\/[^)]+\/archives\/C0SANDBOX\/p\d+\)\*\n\s+:white_check_mark: answered · #sandbox · \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    // The sandbox person is an admin: the connection to the simulator and this week.
    expect(run.stdout).toMatch(/`default` — account \*Production\*/);
    expect(run.stdout).toMatch(/Runs: \*1\* · Answers: \*1\*/);
  });

  it('/webhook fires a sample alert through POST /alerts: a card, an investigation, then a follow-up', async () => {
    const run = await runSandbox(
      '/webhook Checkout errors [sim steps=1 stepms=50 echo=context]\nand the database? [sim steps=1 stepms=50 answer="Follow-up answer."]\n',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the alert webhook fired: POST /alerts → 202 investigating');
    expect(run.stdout).toContain(':mag: Investigating in this thread…');
    expect(run.stdout).toContain(
      'View in Explore button opens https://app.logz.io#/view-in-explore?&triggeredId=',
    );
    expect(run.stdout).toContain('Severity: HIGH');
    expect(run.stdout).toContain('Follow-up answer.');
  });

  it('/alert posts an alert thread; the next message asks about it and the agent saw the alert', async () => {
    const run = await runSandbox(
      '/alert Disk full on db-1\nwhy is this firing? [sim steps=1 stepms=50 echo=context]\n',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Grafana posted an alert in #sandbox: [FIRING:1] Disk full on db-1');
    expect(run.stdout).toContain('**What the agent was given**');
    expect(run.stdout).toMatch(/integration Grafana: Alert: Disk full on db-1/);
    expect(run.stdout).toMatch(new RegExp(`looked at ${WINDOW_PATTERN}`));
  });

  it('answers, records 👍 as score 100 on the session, runs /agent whoami, and exits 0', async () => {
    const run = await runSandbox('why are errors up?\n:+1:\n/agent whoami\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The receipt (its task card's words) first, then the answer.
    expect(run.stdout).toMatch(
      /agent › Agent run complete — 3 steps · took \d+ s · time range: the agent's default\n\s+\*\*Simulated answer \(turn 1\)\*\*/,
    );
    expect(run.stdout).toContain('You asked: why are errors up?');
    // The native status line, not a progress message; the answer ends with its buttons.
    expect(run.stdout).toMatch(/\(status\) agent is working on it… step 3/);
    expect(run.stdout).toContain('[ 👍 ] [ 👎 ]');
    expect(run.stdout).toContain("suggested prompts (the bot's agent view):");
    expect(run.stdout).toContain('• Why are errors up? — Why did the error rate go up in the last hour?');
    expect(run.stdout).toMatch(/feedback recorded: 👍 score 100 for session [0-9a-f-]{36}/);
    expect(run.stdout).toContain('Connected to *Production* (account id 200001).');
    // The conversation only: the bot's JSON log lines went to the file the banner names.
    expect(run.stdout.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
    const logPath = /bot logs\s+(\S+\.log)/.exec(run.stdout)?.[1] ?? '';
    const log = await readFile(logPath, 'utf8');
    await rm(logPath);
    expect(log).toContain('"msg":"slack-agent-bridge started"');
    expect(log).toContain('"msg":"feedback submitted"');
    expect(log).not.toMatch(/xoxb-|sim-agent-token|sim-main-account-token/);
    // In order: each line waited for its outcome before the next was sent.
    const order = ['You asked:', 'feedback recorded:', 'Connected to'].map((text) =>
      run.stdout.indexOf(text),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('clicks 👎 with /rate and sends a comment through the real form', async () => {
    const run = await runSandbox('why are errors up?\n/rate bad the numbers are wrong\n');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('you clicked 👎 under the last answer');
    expect(run.stdout).toMatch(/feedback recorded: 👎 score 0 for session [0-9a-f-]{36}/);
    expect(run.stdout).toContain('only you › Thanks for your 👎');
    expect(run.stdout).toContain('comment recorded with score 0: "the numbers are wrong"');
  });

  it('/shared makes #sandbox Slack Connect: the answer, a follow-up and /rate happen in your DM', async () => {
    const quick = '[sim steps=1 stepms=50]';
    const run = await runSandbox(
      `/shared\nwhy are payments failing? ${quick}\nand since when? ${quick}\n/rate good\n`,
      [],
      50_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('#sandbox is now a Slack Connect channel: Eve External (@ext)');
    expect(run.stdout).toContain(
      'With OUTSIDER_AUDIENCE=dm the bot answers your next question there in your DM',
    );
    expect(run.stdout).toContain('the bot moved your question to your DM');
    // The note stays in the channel; the quote, both answers and the thanks are in the DM.
    expect(run.stdout).toContain("agent (in #sandbox) › :lock: I've answered @you in a direct message");
    expect(run.stdout).toMatch(
      /agent \(in your DM\) › You asked in #sandbox \(https:\/\/\S+\/archives\/C0SANDBOX\/p\d+\):/,
    );
    expect(run.stdout).toMatch(
      /agent \(in your DM\) › Agent run complete — .*\n\s+\*\*Simulated answer \(turn 1\)\*\*/,
    );
    expect(run.stdout).toMatch(
      /agent \(in your DM\) › Agent run complete — .*\n\s+\*\*Simulated answer \(turn 2\)\*\*/,
    );
    expect(run.stdout).toContain('You asked: and since when?');
    expect(run.stdout).not.toMatch(/agent (\(in #sandbox\) )?› \*\*Simulated answer/);
    // One agent session: the follow-up continued it, and the rating reached the simulator for it.
    expect(run.stdout).toContain('you clicked 👍 under the last answer');
    expect(run.stdout).toMatch(/feedback recorded: 👍 score 100 for session [0-9a-f-]{36}/);
    expect(run.stdout).toContain('only you (in your DM) › Thanks for your 👍');
    const order = [
      'is now a Slack Connect',
      "I've answered @you",
      '(turn 1)',
      '(turn 2)',
      'feedback recorded:',
    ].map((text) => run.stdout.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 60_000);

  it('exits 2 with the usage on an unknown option, starting nothing', async () => {
    const run = await runSandbox('', ['--steps=lots']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--steps must be an integer');
    expect(run.stderr).toContain('Usage: npm run sandbox');
  });
});
