import type { RunStatusReport } from '../ports.js';
import type { PollEntry, PollSchedulerDeps } from './poll-contract.js';

type PollOutcome = { ok: true; report: RunStatusReport } | { ok: false; error: unknown };

/** One status request of `entry`, settled early by `signal`'s abort even if getStatus ignores it. */
export function requestStatus(
  getStatus: PollSchedulerDeps['getStatus'],
  entry: PollEntry,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<PollOutcome> {
  return new Promise<PollOutcome>((resolve) => {
    const onAbort = () => resolve({ ok: false, error: signal.reason });
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (outcome: PollOutcome) => {
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    try {
      Promise.resolve(
        getStatus(entry.agentId, entry.sessionId, {
          signal,
          timeoutMs,
          ...(entry.teamId !== undefined ? { teamId: entry.teamId } : {}),
          ...(entry.connection !== undefined ? { connection: entry.connection } : {}),
        }),
      ).then(
        (report) => settle({ ok: true, report }),
        (error: unknown) => settle({ ok: false, error }),
      );
    } catch (error) {
      settle({ ok: false, error });
    }
  });
}
