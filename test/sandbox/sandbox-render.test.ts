import { describe, expect, it } from 'vitest';
import {
  feedbackLine,
  formatBytes,
  readableSlack,
  renderSeen,
  speak,
  unescapeSlack,
  withoutRepeatedWindow,
} from '../../dev/sandbox/render-terminal.js';
import { findSession } from '../../dev/sandbox/sandbox-reaction.js';
import { type SandboxThread, threadLabel, turnTimeoutMs } from '../../dev/sandbox/sandbox-session.js';
import { moveThread, sandboxView, sharingLines } from '../../dev/sandbox/sandbox-sharing.js';
import { ackText } from '../../dev/sandbox/sandbox-slash-command.js';
import type { RunView } from '../../dev/simulator/index.js';

describe('terminal rendering', () => {
  it('indents continuation lines under the speaker', () => {
    expect(speak('agent ›', 'one\n\ntwo\n')).toBe('agent › one\n\n        two');
  });

  it('undoes Slack escapes', () => {
    expect(unescapeSlack('a &lt; b &amp;&amp; c &gt; d')).toBe('a < b && c > d');
  });

  it('prints sizes and the machine-checkable feedback line', () => {
    expect(formatBytes(812)).toBe('812 bytes');
    expect(formatBytes(12_345)).toBe('12.3 kB');
    expect(formatBytes(1_400_000)).toBe('1.4 MB');
    expect(feedbackLine(100, 's-1')).toBe('feedback recorded: 👍 score 100 for session s-1');
    expect(feedbackLine(0, 's-1')).toBe('feedback recorded: 👎 score 0 for session s-1');
  });

  const thread = { channel: 'C0SANDBOX', ts: '1' };

  it('shows what a person sees: progress, answers, notices, files, ephemerals', () => {
    expect(renderSeen({ kind: 'progress', thread, text: 'Working on it… step 2 · 1 s' })).toBe(
      '  · Working on it… step 2 · 1 s',
    );
    expect(renderSeen({ kind: 'notice', thread, ts: '2', text: ':warning: a &lt;b&gt;' })).toBe(
      'agent › :warning: a <b>',
    );
    expect(renderSeen({ kind: 'file', thread, name: 'answer.md', length: 42_000 })).toBe(
      'agent › 📎 answer.md (42.0 kB) uploaded in the thread',
    );
    expect(renderSeen({ kind: 'ephemeral', channel: 'C0SANDBOX', text: "I'm still working" })).toBe(
      "only you › I'm still working",
    );
    expect(renderSeen({ kind: 'status', thread, text: 'is working on it… step 2 · 1 s' })).toBe(
      '  · (status) agent is working on it… step 2 · 1 s',
    );
    expect(renderSeen({ kind: 'answer', thread, ts: '2', text: 'Done.', buttons: true })).toBe(
      'agent › Done.\n        [ 👍 ] [ 👎 ]   ← /rate good|bad [comment]',
    );
  });

  it('reads Slack references: channels, people, labelled and bare links', () => {
    const names = { USANDBOX: 'you', C0SANDBOX: 'sandbox' };
    expect(readableSlack(":lock: I've answered <@USANDBOX> &amp; <@UBOB>", names)).toBe(
      ":lock: I've answered @you & @UBOB",
    );
    expect(
      readableSlack('You asked <https://w.slack.com/archives/C0SANDBOX/p1|in <#C0SANDBOX>>:', names),
    ).toBe('You asked in #sandbox (https://w.slack.com/archives/C0SANDBOX/p1):');
    expect(
      readableSlack('You asked in <#C0SANDBOX> (<https://w.slack.com/archives/C0SANDBOX/p1>):', names),
    ).toBe('You asked in #sandbox (https://w.slack.com/archives/C0SANDBOX/p1):');
    expect(readableSlack('see <#C0OTHER|general> and &lt;not a link&gt;')).toBe(
      'see #general and <not a link>',
    );
  });

  it('names where the bot spoke once the turn left the plain channel', () => {
    let shared = false;
    const view = sandboxView('D00000001', () => shared);
    const dm = { channel: 'D00000001', ts: '5' };
    expect(renderSeen({ kind: 'notice', thread, ts: '2', text: 'Note.' }, view)).toBe('agent › Note.');
    shared = true;
    expect(renderSeen({ kind: 'notice', thread, ts: '2', text: 'I answered <@USANDBOX>.' }, view)).toBe(
      'agent (in #sandbox) › I answered @you.',
    );
    expect(renderSeen({ kind: 'answer', thread: dm, ts: '6', text: 'Done.\nReally.' }, view)).toBe(
      'agent (in your DM) › Done.\n                     Really.',
    );
    expect(renderSeen({ kind: 'status', thread: dm, text: 'is working on it… 0 s' }, view)).toBe(
      '  · (status in your DM) agent is working on it… 0 s',
    );
    expect(renderSeen({ kind: 'ephemeral', channel: 'D00000001', text: 'Thanks' }, view)).toBe(
      'only you (in your DM) › Thanks',
    );
    expect(renderSeen({ kind: 'moved', from: thread, questionTs: '1', to: dm }, view)).toBe(
      '  · the bot moved your question to your DM, where only you read the answer: your next lines are replies in that thread',
    );
  });
});

describe('/shared', () => {
  it.each([
    [
      'dm',
      'the bot answers your next question there in your DM',
      'OUTSIDER_AUDIENCE=thread|refuse npm run sandbox',
    ],
    ['thread', 'the bot still answers in the thread', 'OUTSIDER_AUDIENCE=dm|refuse npm run sandbox'],
    [
      'refuse',
      'the bot answers no question there, and tells only you why',
      'OUTSIDER_AUDIENCE=dm|thread npm run sandbox',
    ],
  ] as const)('says what the bot does with OUTSIDER_AUDIENCE=%s', (policy, does, others) => {
    const lines = sharingLines(true, policy, false);
    expect(lines).toContain('#sandbox is now a Slack Connect channel: Eve External (@ext)');
    expect(lines).toContain(`With OUTSIDER_AUDIENCE=${policy} ${does}`);
    expect(lines).toContain(others);
  });

  it('says the channel is internal again, and where the current thread stays', () => {
    expect(sharingLines(false, 'dm', false)).toBe(
      '#sandbox is internal again (the bot got channel_unshared): it answers in the thread there.',
    );
    expect(sharingLines(false, 'dm', true)).toContain('Your current thread is still in your DM: /new');
  });

  it('moves a thread to the DM thread, to be found again by the moved question', () => {
    const moved: SandboxThread = {
      channel: 'C0SANDBOX',
      ts: '1',
      firstText: 'why?',
      sessionsBefore: new Set(),
      sessionId: 's-channel',
    };
    moveThread(moved, { channel: 'D00000001', ts: '9' }, '<@UBOT> and now?');
    expect(moved).toEqual({
      channel: 'D00000001',
      ts: '9',
      firstText: 'and now?',
      sessionsBefore: new Set(),
      sessionId: undefined,
    });
  });
});

describe('turn and command helpers', () => {
  const script = { steps: 3, stepMs: 400, outcome: 'done' as const };

  it('gives a turn its script time plus room to poll and post', () => {
    expect(turnTimeoutMs('why?', script)).toBe(4 * 400 + 20_000);
    expect(turnTimeoutMs('why? [sim steps=9 stepms=1000]', script)).toBe(10 * 1000 + 20_000);
    expect(turnTimeoutMs('why? [sim bogus=1]', script)).toBe(4 * 400 + 20_000);
  });

  it('reads the text of a command ack, if any', () => {
    expect(ackText('')).toBeUndefined();
    expect(ackText('{"response_type":"ephemeral","text":"Working on it…"}')).toBe('Working on it…');
    expect(ackText('{}')).toBeUndefined();
  });

  it('finds a thread’s session among the runs that started after it, by its first prompt', () => {
    const run = (sessionId: string, prompt: string) => ({ sessionId, prompts: [prompt] }) as RunView;
    const older = {
      channel: 'C',
      ts: '1',
      firstText: 'a',
      sessionsBefore: new Set<string>(),
      sessionId: 's-a',
    };
    const thread = { channel: 'C', ts: '2', firstText: 'why?', sessionsBefore: new Set(['s-old']) };
    const runs = [run('s-old', 'why?'), run('s-a', 'a'), run('s-other', 'else'), run('s-why', 'why? [sim]')];
    expect(findSession(thread, [older, thread], runs)).toBe('s-why');
    expect(thread).toMatchObject({ sessionId: 's-why' });
  });
});

describe('withoutRepeatedWindow', () => {
  const receipt = 'Agent run complete — 1 step · took 0 s · looked at 12:52–13:52 UTC (2026-11-27)';
  it('drops the footer line that repeats the receipt’s window, and keeps the rest', () => {
    const text = `${receipt}\nThe answer.\nLooked at 12:52–13:52 UTC (2026-11-27)`;
    expect(withoutRepeatedWindow(text)).toEqual({
      text: `${receipt}\nThe answer.`,
      said: '12:52–13:52 UTC (2026-11-27)',
    });
  });

  it('drops it from a later part of the same answer, and keeps a different window', () => {
    const said = '12:52–13:52 UTC (2026-11-27)';
    expect(withoutRepeatedWindow('Part two.\nLooked at 12:52–13:52 UTC (2026-11-27)', said).text).toBe(
      'Part two.',
    );
    expect(withoutRepeatedWindow('Part two.\nLooked at 09:00–10:00 UTC (2026-11-27)', said).text).toContain(
      'Looked at 09:00',
    );
    expect(withoutRepeatedWindow('No receipt.\nLooked at 09:00–10:00 UTC (2026-11-27)')).toEqual({
      text: 'No receipt.\nLooked at 09:00–10:00 UTC (2026-11-27)',
    });
  });
});

describe('threadLabel', () => {
  const thread = (firstText: string): SandboxThread => ({
    channel: 'C0SANDBOX',
    ts: '1.0',
    firstText,
    sessionsBefore: new Set(),
  });
  it('names a thread by its first words, without the [sim …] tag, cut at 40 characters', () => {
    expect(threadLabel(thread('why is checkout slow? [sim steps=3]'))).toBe('thread "why is checkout slow?"');
    expect(threadLabel(thread('a'.repeat(50)))).toBe(`thread "${'a'.repeat(39)}…"`);
    expect(threadLabel(thread(''))).toBe('the alert thread');
  });
});
