import type { SlackStandin } from '../slack-standin/index.js';
import type { ThreadMonitor, ThreadRef } from './thread-monitor.js';

/** Where a turn began: the turns already ended in its thread and the ephemerals already seen. */
export interface TurnMark {
  endedBefore: ReadonlySet<string>;
  refusalsBefore: number;
}

/** Notes what is already there, before a question is sent (`thread`: its thread, if it has one yet). */
export function markTurn(monitor: ThreadMonitor, thread: ThreadRef | undefined): TurnMark {
  // Turn ids, not counts: the turn may end in another thread (the DM) than the one it began in.
  return {
    endedBefore: new Set(thread ? (monitor.endedTurns(thread) ?? []) : []),
    refusalsBefore: monitor.ephemeralCount(),
  };
}

/**
 * Waits until a turn is over as a person sees it, so everything it shows is printed before the
 * next prompt: an outcome is posted, every part of a long answer is in, and the bot has set the
 * thread's agent session back from `processing` — which it does only after the answer's last part
 * and its file (src/conversation/turn/outcome-poster.ts). A refusal (an ephemeral) ends it too.
 * `thread` is read at every check: the bot may move the turn to the person's DM meanwhile.
 */
export async function waitForTurn(
  slack: SlackStandin,
  monitor: ThreadMonitor,
  thread: ThreadRef,
  mark: TurnMark,
  options: { timeoutMs: number; description: string },
): Promise<void> {
  await slack.waitFor(() => {
    monitor.poll();
    if (monitor.ephemeralCount() > mark.refusalsBefore) return true;
    const ended = [...(monitor.endedTurns(thread) ?? [])].some((turn) => !mark.endedBefore.has(turn));
    return (
      ended && monitor.answersComplete(thread) && !slack.agentSessions.showsStop(thread.channel, thread.ts)
    );
  }, options);
}
