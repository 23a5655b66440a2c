import { readFile, rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { answerAllLine, answerAllSwitch } from '../../dev/sandbox/sandbox-answer-all.js';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * DESIGN "Answer channels" in the sandbox: `/agent channel answer-all on` (the sandbox person is an
 * admin) makes the next line a plain top-level post, which the bot answers only because of the
 * switch; `off` brings the implicit mention back.
 */

/** The bot's JSON log lines, from the file the banner names (removed once read). */
async function botLog(stdout: string): Promise<Array<Record<string, unknown>>> {
  const path = /bot logs\s+(\S+\.log)/.exec(stdout)?.[1] ?? '';
  const text = await readFile(path, 'utf8');
  await rm(path);
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('answerAllSwitch', () => {
  it.each([
    ['channel answer-all on', true],
    ['Channel  Answer-All OFF', false],
    ['channel answer-all', undefined],
    ['channel answer-all sometimes', undefined],
    ['channel investigate on', undefined],
    ['whoami', undefined],
  ])('%j → %j', (text, expected) => {
    expect(answerAllSwitch(text)).toBe(expected);
  });
});

describe('npm run sandbox: #sandbox as an answer channel (piped)', () => {
  it('answers a line posted without a mention once answer-all is on; mentions again once it is off', async () => {
    const run = await runSandbox(
      [
        '/help',
        '/agent channel answer-all on',
        'why did checkout slow down? [sim steps=1 stepms=50 answer="A deploy at 09:58."]',
        'and the database? [sim steps=1 stepms=50 answer="Healthy."]',
        '/agent channel answer-all off',
        'still there? [sim steps=1 stepms=50 answer="Still here."]',
        '',
      ].join('\n'),
      ['--log-level', 'debug'],
      40_000,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = run.stdout;
    // The banner and /help both list it.
    expect(out.split('/agent channel answer-all on|off  make #sandbox an answer channel')).toHaveLength(3);
    expect(out).toContain(
      'only you › Every new top-level message people inside post in #sandbox is now answered',
    );
    expect(out).toContain(`  · ${answerAllLine(true)}`);
    expect(out).toMatch(
      /you {3}› why did checkout slow down\?[^\n]*\n[\s\S]*?agent › [^\n]*\n\s+A deploy at 09:58\./,
    );
    expect(out).toMatch(/you {3}› and the database\?[^\n]*\n[\s\S]*?agent › [^\n]*\n\s+Healthy\./);
    expect(out).toContain('only you › Messages in #sandbox are no longer all answered');
    expect(out).toContain(`  · ${answerAllLine(false)}`);
    expect(out).toMatch(/you {3}› still there\?[^\n]*\n[\s\S]*?agent › [^\n]*\n\s+Still here\./);
    // Only the first question came by the answer-all path (posted without a mention); the
    // follow-up was a reply, and after `off` the line mentioned the bot again.
    const log = await botLog(out);
    const byAnswerAll = log.filter((record) => record.msg === 'answer channel message handled');
    expect(byAnswerAll.map((record) => record.result)).toEqual(['started']);
    expect(log.filter((record) => record.msg === 'turn started')).toHaveLength(3);
  }, 45_000);
});
