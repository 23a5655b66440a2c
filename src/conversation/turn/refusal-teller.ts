import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import type { Refusal, RefusalDetail, ThreadOutput } from '../thread-output-port.js';
import { deliverWhileTransient } from './outcome-retry.js';
import type { TurnRequest } from './turn-request.js';

/** A refusal is retried while Slack fails transiently, but no longer than this: later it only confuses. */
const REFUSAL_GIVE_UP_MS = 10 * 60 * 1000;

/** Tells a sender why their message was not taken, beside the caller, retried like an outcome. */
export function createRefusalTeller(deps: {
  output: Pick<ThreadOutput, 'refuse'>;
  clock: Clock;
  logger: Logger;
}) {
  const stopping = new AbortController();
  const underWay = new Set<Promise<unknown>>();

  function tell(request: TurnRequest, refusal: Refusal, detail?: RefusalDetail): void {
    const { teamId, channel, threadTs, userId, sourceTs } = request;
    const work = deliverWhileTransient(
      () => deps.output.refuse({ teamId, channel, threadTs }, userId, sourceTs, refusal, detail),
      { clock: deps.clock, signal: stopping.signal, giveUpAfterMs: REFUSAL_GIVE_UP_MS },
    ).then((result) => {
      if (!result.ok) deps.logger.warn({ channel, refusal, code: result.code }, 'refusal not delivered');
    });
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  }

  /** Ends the retries of refusals still waiting for Slack (shutdown); resolves once they settled. */
  async function stop(): Promise<void> {
    stopping.abort();
    await Promise.all([...underWay]);
  }

  return { tell, stop };
}
