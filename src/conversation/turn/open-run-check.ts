import { type Clock, DONE_WAITING } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { AgentRunsPort, RunStatusReport } from '../ports.js';

/** A finished run answers at once; a working one long-polls, so no answer by then means "still working". */
const OPEN_RUN_CHECK_MS = 5_000;
const STILL_WORKING: RunStatusReport = { status: 'timeout' };

/**
 * The status of a thread's run left open, read before anything is sent (the seed's rule 2): `timeout`
 * while it long-polls, undefined when the request failed (the follow-up then says what is wrong).
 */
export async function readOpenRun(
  agent: Pick<AgentRunsPort, 'getRunStatus'>,
  agentId: string,
  sessionId: string,
  { clock, logger }: { clock: Clock; logger: Logger },
): Promise<RunStatusReport | undefined> {
  const giveUp = new AbortController();
  const timedOut = clock.sleep(OPEN_RUN_CHECK_MS, giveUp.signal).then(
    () => STILL_WORKING,
    () => STILL_WORKING,
  );
  const read = agent
    .getRunStatus(agentId, sessionId, { signal: giveUp.signal, timeoutMs: OPEN_RUN_CHECK_MS })
    .catch((error: unknown) => {
      if (giveUp.signal.aborted) return STILL_WORKING;
      logger.warn({ err: error, sessionId }, 'could not read the status of a run left open');
      return undefined;
    });
  try {
    return await Promise.race([read, timedOut]);
  } finally {
    giveUp.abort(DONE_WAITING);
  }
}
