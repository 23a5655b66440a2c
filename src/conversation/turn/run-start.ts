import { threadKey as makeThreadKey } from '../thread-key.js';
import { createRunRequest } from './run-request.js';
import { createStartWork, type ReadyTurn, type RunStartDeps } from './start-work.js';
import type { ThreadRecord, TurnDraft } from './turn-records.js';
import type { TurnRequest, TurnRequestResult } from './turn-request.js';

export type { ReadyTurn, RunStartDeps } from './start-work.js';

/**
 * From a taken message to a polled run: the thread's busy lock, then the turn machine (through the
 * runner) decides how the turn starts; start-work.ts does that work.
 */
export function createRunStart(deps: RunStartDeps) {
  const { ledger, clock, settings } = deps;
  const requests = createRunRequest(deps);
  // The busy lock outlasts the deadline and the late watch: a turn frees it when it ends.
  const lockTtl = settings.turnDeadlineMs + (settings.lateWatchMs ?? 0) + 10 * 60 * 1000;

  async function begin(
    request: TurnRequest,
    thread: ThreadRecord | undefined,
    prepared: ReadyTurn,
    spent: { giveBack(): Promise<void> },
  ): Promise<TurnRequestResult> {
    const draft = draftOf(request, thread, prepared);
    const threadLock = ledger.threadLock(draft.threadKey, draft.turnId);
    if (!(await threadLock.take(lockTtl))) {
      await spent.giveBack();
      const holder = await ledger.turnHolding(draft.threadKey);
      deps.refuseBusy(request, holder ? clock.now() - holder.startedAt : undefined);
      return 'busy';
    }
    const taken = { request, thread, prepared, spent, releaseLock: () => threadLock.release() };
    const { work, result } = createStartWork(deps, requests, taken);
    await deps.runner.begin(draft, thread, work);
    return result();
  }

  function draftOf(request: TurnRequest, thread: ThreadRecord | undefined, prepared: ReadyTurn): TurnDraft {
    const now = clock.now();
    const { teamId, channel, threadTs, userId, sourceTs, alertAt } = request;
    return {
      turnId: deps.newId(),
      threadKey: makeThreadKey(teamId, channel, threadTs),
      teamId,
      channel,
      threadTs,
      agentId: prepared.agentId,
      ...(prepared.connection !== undefined ? { connection: prepared.connection } : {}),
      userId,
      sourceTs,
      sessionId: thread?.sessionId,
      ...(prepared.files ? { files: prepared.files } : {}),
      ...(alertAt !== undefined ? { alertAt } : {}),
      timerange: prepared.context.timerange,
      startedAt: now,
      deadlineAt: now + settings.turnDeadlineMs,
    };
  }

  return { begin };
}

export type RunStart = ReturnType<typeof createRunStart>;
