import { describe, expect, it } from 'vitest';
import {
  feedbackLine,
  formatBytes,
  renderSeen,
  speak,
  unescapeSlack,
} from '../../src/sandbox/render-terminal.js';
import { findSession } from '../../src/sandbox/sandbox-reaction.js';
import { turnTimeoutMs } from '../../src/sandbox/sandbox-session.js';
import { ackText } from '../../src/sandbox/sandbox-slash-command.js';
import type { RunView } from '../../src/simulator/index.js';

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

  it('shows what a person sees: progress, answers, notices, files, ephemerals', () => {
    expect(renderSeen({ kind: 'progress', threadTs: '1', text: 'Working on it… step 2 · 1 s' })).toBe(
      '  · Working on it… step 2 · 1 s',
    );
    expect(renderSeen({ kind: 'notice', threadTs: '1', ts: '2', text: ':warning: a &lt;b&gt;' })).toBe(
      'agent › :warning: a <b>',
    );
    expect(renderSeen({ kind: 'file', threadTs: '1', name: 'answer.md', length: 42_000 })).toBe(
      'agent › 📎 answer.md (42.0 kB) uploaded in the thread',
    );
    expect(renderSeen({ kind: 'ephemeral', text: "I'm still working" })).toBe("only you › I'm still working");
    expect(renderSeen({ kind: 'status', threadTs: '1', text: 'is working on it… step 2 · 1 s' })).toBe(
      '  · (status) agent is working on it… step 2 · 1 s',
    );
    expect(renderSeen({ kind: 'answer', threadTs: '1', ts: '2', text: 'Done.', buttons: true })).toBe(
      'agent › Done.\n        [ 👍 ] [ 👎 ]   ← /rate good|bad [comment]',
    );
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
    const older = { ts: '1', firstText: 'a', sessionsBefore: new Set<string>(), sessionId: 's-a' };
    const thread = { ts: '2', firstText: 'why?', sessionsBefore: new Set(['s-old']) };
    const runs = [run('s-old', 'why?'), run('s-a', 'a'), run('s-other', 'else'), run('s-why', 'why? [sim]')];
    expect(findSession(thread, [older, thread], runs)).toBe('s-why');
    expect(thread).toMatchObject({ sessionId: 's-why' });
  });
});
