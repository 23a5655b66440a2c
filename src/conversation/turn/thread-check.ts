import type { Logger } from '../../runtime/logger.js';
import type { ThreadOutput, TurnMessages } from '../thread-output-port.js';
import { where } from './turn-in-flight.js';
import type { TurnRecord } from './turn-records.js';

/**
 * The look at the thread that delivery takes after a takeover or a failed post (DESIGN "Durable
 * turns": `chat.postMessage` has no idempotency key, so what already landed is found by the turn id
 * in its metadata). The same read finds progress messages the record does not name (a replica killed
 * before it saved the ts), which would say "working" forever: they go with the turn's own indicator.
 */
export function createThreadCheck(deps: {
  output: Pick<ThreadOutput, 'findTurnMessages' | 'removeProgress'>;
  logger: Logger;
}) {
  const { output, logger } = deps;
  /** Per turn id: progress messages found in its thread that its record does not name. */
  const strays = new Map<string, Set<string>>();

  /** What of the turn is in its thread (one thread read); remembers its unrecorded progress messages. */
  async function look(turn: TurnRecord): Promise<TurnMessages> {
    const found = await output.findTurnMessages(where(turn), turn.turnId);
    const unnamed = found.progress.filter((ts) => ts !== turn.progressTs);
    if (unnamed.length > 0)
      strays.set(turn.turnId, new Set([...(strays.get(turn.turnId) ?? []), ...unnamed]));
    return found;
  }

  /** Removes the turn's progress messages that {@link look} found unrecorded. Never rejects (logged). */
  async function removeStrays(turn: TurnRecord): Promise<void> {
    const found = strays.get(turn.turnId);
    if (!found) return;
    strays.delete(turn.turnId);
    const fields = { threadKey: turn.threadKey, turnId: turn.turnId };
    for (const ts of found) {
      try {
        await output.removeProgress(where(turn), ts);
        logger.info({ ...fields, ts }, 'removed a progress message the turn record did not name');
      } catch (error) {
        logger.warn(
          { ...fields, ts, err: error },
          'could not remove a progress message the turn record did not name',
        );
      }
    }
  }

  /** Another instance owns the turn now: what it finds and removes is its own business. */
  function forget(turnId: string): void {
    strays.delete(turnId);
  }

  return { look, removeStrays, forget };
}

export type ThreadCheck = ReturnType<typeof createThreadCheck>;
