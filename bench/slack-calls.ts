/**
 * Slack calls per turn, for each progress style (the issue: "count what this saves"). A fresh
 * stand-ins process and bot per style, a small batch of real runs with the bench's script (5 steps
 * 500 ms apart), every Slack Web API call counted once the last answer is in and the bot has
 * removed what it removes. Small on purpose: it measures calls, not speed. Agent sessions are on
 * (the bot's default; the stand-in answers `agents.sessions.*`), so their calls — `processing`
 * with a title when a run starts (a rename only where the thread had a session), `active` once
 * the answer is posted — are counted. A second batch of new threads in the same channels then
 * shows what a turn costs once the channel's audience is known.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, nextMessage, spawnNode, stopChild, waitHealthy } from './processes.js';
import type { LoadReply, LoadRequest, MentionRef, StandInsReply, StandInsRequest } from './protocol.js';
import { round } from './stats.js';

export type ProgressStyle = 'status' | 'message';

/** Slack calls per turn with one progress style. */
export interface SlackCallsPerTurn {
  style: ProgressStyle;
  turns: number;
  /** Every Slack Web API call (auth.test at start-up excluded), divided by the turns. */
  perTurn: number;
  /** The same, by method. */
  byMethod: Record<string, number>;
  /**
   * A second batch of as many new threads in the same channels, right after: what a new-thread
   * turn costs once the channel's audience verdict and its people are known (DESIGN "Who reads the
   * answer": one `conversations.info` + `conversations.members` per conversation, kept 15 minutes).
   */
  seenChannel: { perTurn: number; byMethod: Record<string, number> };
}

export interface SlackCallsDeps {
  here: string;
  forkTs: (modulePath: string) => ChildProcess;
  botArgs: string[];
  botEnv: (simUrl: string, slackApiUrl: string, port: number) => Record<string, string>;
  mentioner: ChildProcess;
  turns: number;
}

const send = <T>(child: ChildProcess, message: T) => child.send(message as object);

async function answerCount(standIns: ChildProcess): Promise<number> {
  const reply = nextMessage<Extract<StandInsReply, { type: 'answers' }>>(standIns, 'answers', 10_000);
  send<StandInsRequest>(standIns, { type: 'answers' });
  return (await reply).count;
}

/** Every Slack call so far but `auth.test` (start-up), by method. */
async function callsSoFar(standIns: ChildProcess, mentions: MentionRef[]): Promise<Record<string, number>> {
  const reply = nextMessage<Extract<StandInsReply, { type: 'report' }>>(standIns, 'report', 30_000);
  send<StandInsRequest>(standIns, { type: 'report', mentions });
  const { slackCalls } = (await reply).report;
  return Object.fromEntries(Object.entries(slackCalls).filter(([method]) => method !== 'auth.test'));
}

/** `calls` per turn: the total and by method. */
function perTurnOf(calls: Record<string, number>, turns: number) {
  const counted = Object.entries(calls).filter(([, count]) => count > 0);
  const total = counted.reduce((sum, [, count]) => sum + count, 0);
  return {
    perTurn: round(total / turns, 2),
    byMethod: Object.fromEntries(counted.map(([method, count]) => [method, round(count / turns, 2)])),
  };
}

/** Runs `deps.turns` turns with `style` and counts the bot's Slack calls. */
export async function measureSlackCalls(
  deps: SlackCallsDeps,
  style: ProgressStyle,
): Promise<SlackCallsPerTurn> {
  const standIns = deps.forkTs(join(deps.here, 'stand-ins.ts'));
  try {
    const urls = await nextMessage<Extract<StandInsReply, { type: 'ready' }>>(standIns, 'ready', 30_000);
    const port = await freePort();
    const env = { ...deps.botEnv(urls.simUrl, urls.slackApiUrl, port), PROGRESS_STYLE: style };
    const { child: bot } = spawnNode(deps.botArgs, env);
    try {
      const botUrl = `http://127.0.0.1:${port}`;
      await waitHealthy(`${botUrl}/healthz`, bot, 30_000);
      // A batch of new threads; the mentioner spreads a batch over the bench channels from the first.
      const batch = async (answered: number): Promise<MentionRef[]> => {
        const posted = nextMessage<Extract<LoadReply, { type: 'posted' }>>(deps.mentioner, 'posted', 30_000);
        send<LoadRequest>(deps.mentioner, {
          type: 'mentions',
          appUrl: botUrl,
          size: deps.turns,
          ratePerSecond: 1_000,
          concurrency: 32,
        });
        const { mentions } = await posted;
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline && (await answerCount(standIns)) < answered + deps.turns)
          await sleep(100);
        // The progress message is deleted after the answer is posted: let the last ones settle.
        await sleep(1_500);
        return mentions;
      };
      const first = await callsSoFar(standIns, await batch(0));
      const both = await callsSoFar(standIns, await batch(deps.turns));
      const second = Object.fromEntries(
        Object.entries(both).map(([method, count]) => [method, count - (first[method] ?? 0)]),
      );
      return {
        style,
        turns: deps.turns,
        ...perTurnOf(first, deps.turns),
        seenChannel: perTurnOf(second, deps.turns),
      };
    } finally {
      await stopChild(bot);
    }
  } finally {
    await stopChild(standIns);
  }
}

/** Agent session calls (`agents.sessions.*`: processing, rename, active) per turn, within `perTurn`. */
export function sessionCallsPerTurn(result: SlackCallsPerTurn): number {
  const calls = Object.entries(result.byMethod).filter(([method]) => method.startsWith('agents.sessions.'));
  return round(
    calls.reduce((sum, [, count]) => sum + count, 0),
    2,
  );
}

/** Issue 29: status, the session with its title, the answer, the session active — nothing twice. */
export const NEW_THREAD_CALLS_LIMIT = 4;

/** "status: 2.1 Slack calls per turn (…)" lines, and what the native status saves. */
export function formatSlackCalls(results: SlackCallsPerTurn[]): string {
  const lines = results.map((result) => {
    const methods = Object.entries(result.byMethod)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([method, count]) => `${method} ${count}`)
      .join(', ');
    const sessions = `agent sessions on: ${sessionCallsPerTurn(result)} of them agents.sessions.*`;
    const seen = Object.entries(result.seenChannel.byMethod)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([method, count]) => `${method} ${count}`)
      .join(', ');
    return (
      `Slack calls per turn, PROGRESS_STYLE=${result.style}: ${result.perTurn} (${methods}; ${sessions}; ${result.turns} turns, each the first in its channel)\n` +
      `  then ${result.turns} new threads in the same channels: ${result.seenChannel.perTurn} (${seen})`
    );
  });
  const status = results.find((result) => result.style === 'status');
  if (status) {
    const seen = status.seenChannel.perTurn;
    lines.push(
      `${seen <= NEW_THREAD_CALLS_LIMIT ? 'met   ' : 'MISSED'}  Slack calls per new-thread turn (PROGRESS_STYLE=status) ≤ ${NEW_THREAD_CALLS_LIMIT}: ${seen} ` +
        `(status, session with its title, answer, session active; in a channel already judged — ` +
        `${status.perTurn} where the turn is also the channel's first: its audience check)`,
    );
  }
  const message = results.find((result) => result.style === 'message');
  if (status && message && message.perTurn > 0) {
    const saved = Math.round((1 - status.perTurn / message.perTurn) * 100);
    lines.push(
      `native status saves ${round(message.perTurn - status.perTurn, 2)} Slack calls per turn (${saved}%)`,
    );
  }
  return lines.join('\n');
}
