import { describe, expect, it } from 'vitest';
import { type AgentSessionPort, createAgentSessions } from '../../src/conversation/agent-session.js';
import type { ThreadLocation } from '../../src/conversation/thread-output-port.js';
import type { StatusResult } from '../../src/conversation/turn/turn-progress.js';
import { memoryLogger } from '../support/memory-log.js';

/** A port that records calls and answers per workspace as told. */
function recordingPort(answers: Record<string, StatusResult>) {
  const calls: string[] = [];
  const answer = (where: ThreadLocation) => answers[where.teamId] ?? { ok: true };
  const port: AgentSessionPort = {
    async setStatus(where, status, question) {
      calls.push(`${where.teamId} ${status}${question ? ` "${question}"` : ''}`);
      return answer(where);
    },
    async rename(where, question) {
      calls.push(`${where.teamId} rename "${question}"`);
      return answer(where);
    },
  };
  return { port, calls };
}

const at = (teamId: string): ThreadLocation => ({ teamId, channel: 'C1', threadTs: '1.1' });
const REFUSED: StatusResult = { ok: false, unavailable: true, error: 'unknown_method' };

describe('agent sessions (per-workspace fallback)', () => {
  it('names a new session, renames it when asked, and ends it active', async () => {
    const { port, calls } = recordingPort({});
    const sessions = createAgentSessions({ port, logger: memoryLogger().logger });
    await sessions.begin(at('T1'), { question: 'Why?', rename: true });
    await sessions.begin(at('T1'), {});
    await sessions.end(at('T1'));
    expect(calls).toEqual(['T1 processing "Why?"', 'T1 rename "Why?"', 'T1 processing', 'T1 active']);
  });

  it('leaves a refusing workspace alone from then on, logged once; other workspaces go on', async () => {
    const log = memoryLogger('warn');
    const { port, calls } = recordingPort({ T1: REFUSED });
    const sessions = createAgentSessions({ port, logger: log.logger });
    await sessions.begin(at('T1'), { question: 'Why?', rename: true });
    await sessions.end(at('T1'));
    await sessions.begin(at('T1'), { question: 'Again?' });
    await sessions.begin(at('T2'), { question: 'Elsewhere?' });
    expect(calls).toEqual(['T1 processing "Why?"', 'T2 processing "Elsewhere?"']);
    expect(log.records()).toHaveLength(1);
    expect(log.records()[0]).toMatchObject({ teamId: 'T1', error: 'unknown_method' });
  });

  it('a passing failure changes nothing: the next call tries again', async () => {
    const { port, calls } = recordingPort({ T1: { ok: false, unavailable: false, error: 'ratelimited' } });
    const sessions = createAgentSessions({ port, logger: memoryLogger().logger });
    await sessions.begin(at('T1'), { question: 'Why?', rename: true });
    await sessions.end(at('T1'));
    // No rename of a session the failed call may not have created.
    expect(calls).toEqual(['T1 processing "Why?"', 'T1 active']);
  });
});
