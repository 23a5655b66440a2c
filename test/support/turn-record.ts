import type { TurnRecord } from '../../src/conversation/turn/turn-records.js';

/** A first turn of thread T1:C1:100.000001 whose run is being polled (session s1); spread to vary it. */
export const POLLED_TURN: TurnRecord = {
  turnId: 'turn-1',
  threadKey: 'T1:C1:100.000001',
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.000001',
  agentId: 'agent',
  userId: 'U1',
  sourceTs: '100.000001',
  kind: 'start',
  phase: 'polling',
  sessionId: 's1',
  startedAt: 0,
  deadlineAt: 60_000,
};
