/**
 * The bench's service side, in one process of its own: the agent-service simulator and the Slack
 * stand-in on loopback, port 0. Prints `{"simUrl", "slackApiUrl"}` as one JSON line once both
 * listen, then answers control messages from the orchestrator over IPC (it is started with
 * `child_process.fork`): how many answers the stand-in accepted, and the size's measurements.
 */

import type { Simulator } from '../dev/simulator/index.js';
import { startSimulator } from '../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../dev/slack-standin/index.js';
import type { ServiceReport, StandInsReply, StandInsRequest } from './protocol.js';
import { BENCH_LONG_POLL_MS, BENCH_SCRIPT, type MentionRef, runIdOf } from './protocol.js';
import { median, quantile } from './stats.js';

const ANSWER_EVENT_TYPE = 'agent_answer';
const STATUS_PATH = /^\/v2\/ai-agent\/[^/]+\/[^/]+\/?$/;
const START_PATH = /^\/v2\/ai-agent\/[^/]+\/?$/;

/** A service request's kind for the floor: a run's start, a status poll, or something else. */
function serviceKind(request: { method: string; path: string }): string {
  if (request.method === 'GET' && STATUS_PATH.test(request.path)) return 'status';
  if (request.method === 'POST' && START_PATH.test(request.path)) return 'start';
  return `${request.method} other`;
}

/**
 * Exchanges so far (the floor takes the difference over the measured window) and the last
 * argument set of each Slack method answered ok, for the floor to send the same calls.
 */
function exchangeCounts(sim: Simulator, slack: SlackStandin): Extract<StandInsReply, { type: 'counts' }> {
  const samples: Record<string, Record<string, unknown>> = {};
  for (const call of slack.calls)
    if (call.ok && call.method !== 'auth.test') samples[call.method] = call.args;
  return {
    type: 'counts',
    counts: {
      slack: countBy(slack.calls, (c) => c.method),
      service: countBy(sim.requests, serviceKind),
    },
    samples,
  };
}

interface AcceptedAnswer {
  channel: string;
  threadTs: string;
  at: number;
}

/** Answer posts accepted by the stand-in, read incrementally from its call log. */
function answerLog(slack: SlackStandin) {
  const answers = new Map<string, AcceptedAnswer>();
  let scanned = 0;
  return (): Map<string, AcceptedAnswer> => {
    const calls = slack.calls;
    for (; scanned < calls.length; scanned += 1) {
      const call = calls[scanned];
      if (call === undefined || call.method !== 'chat.postMessage' || !call.ok) continue;
      if (eventTypeOf(call.args.metadata) !== ANSWER_EVENT_TYPE) continue;
      const channel = String(call.args.channel ?? '');
      const threadTs = String(call.args.thread_ts ?? '');
      const key = `${channel}:${threadTs}`;
      // A long answer comes in parts: the first part is when the person sees it.
      if (!answers.has(key)) answers.set(key, { channel, threadTs, at: call.at });
    }
    return answers;
  };
}

/** The Web client sends metadata form-encoded as a JSON string; a JSON body carries it as an object. */
function eventTypeOf(metadata: unknown): string | undefined {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const type = (value as { event_type?: unknown } | null | undefined)?.event_type;
  return typeof type === 'string' ? type : undefined;
}

function report(
  sim: Simulator,
  slack: SlackStandin,
  answers: Map<string, AcceptedAnswer>,
  mentions: MentionRef[],
): ServiceReport {
  const finishedAtById = new Map<string, number>();
  for (const run of sim.runs()) {
    const id = runIdOf(run.prompts[0] ?? '');
    if (id !== undefined && run.finishedAt !== undefined) finishedAtById.set(id, run.finishedAt);
  }
  const delivery: number[] = [];
  let unmatched = 0;
  for (const mention of mentions) {
    const answer = answers.get(`${mention.channel}:${mention.threadTs}`);
    const finishedAt = finishedAtById.get(mention.id);
    if (answer === undefined || finishedAt === undefined) {
      unmatched += 1;
      continue;
    }
    delivery.push(answer.at - finishedAt);
  }
  const status = sim.requests.filter((r) => r.method === 'GET' && STATUS_PATH.test(r.path));
  const statusMs = status.filter((r) => r.status === 200).map((r) => r.finishedAt - r.at);
  delivery.sort((a, b) => a - b);
  statusMs.sort((a, b) => a - b);
  return {
    runs: sim.runs().length,
    answers: answers.size,
    unmatched,
    deliveryMs: { p50: quantile(delivery, 0.5), p99: quantile(delivery, 0.99), max: delivery.at(-1) ?? 0 },
    maxInFlightSeen: sim.maxInFlightSeen,
    statusRequests: status.length,
    statusMedianMs: median(statusMs),
    statusP99Ms: quantile(statusMs, 0.99),
    serviceRequests: sim.requests.length,
    status429: sim.requests.filter((r) => r.status === 429).length,
    serviceStatuses: countBy(
      sim.requests,
      (r) => `${r.method} ${r.path.split('/').length > 4 ? 'status' : 'start'} ${r.status}`,
    ),
    slackCalls: countBy(slack.calls, (c) => (c.ok ? c.method : `${c.method} ${c.error ?? 'failed'}`)),
  };
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const key = keyOf(item);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

async function main(): Promise<void> {
  const sim = await startSimulator({
    quiet: true,
    longPollMs: BENCH_LONG_POLL_MS,
    defaultScript: { ...BENCH_SCRIPT },
  });
  const slack = await startSlackStandin();
  const answers = answerLog(slack);
  const send = (reply: StandInsReply) => process.send?.(reply);

  process.on('message', (raw) => {
    const request = raw as StandInsRequest;
    if (request.type === 'answers') {
      const count = answers().size;
      send({
        type: 'answers',
        count,
        runs: sim.runs().length,
        slackCalls: slack.calls.length,
        serviceRequests: sim.requests.length,
      });
    }
    if (request.type === 'counts') send(exchangeCounts(sim, slack));
    if (request.type === 'report')
      send({ type: 'report', report: report(sim, slack, answers(), request.mentions) });
  });
  const stop = () => {
    void Promise.allSettled([sim.close(), slack.close()]).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // The orchestrator went away: do not outlive it.
  process.once('disconnect', stop);

  const ready = { simUrl: sim.url, slackApiUrl: slack.apiUrl };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  send({ type: 'ready', ...ready });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench stand-ins failed to start: ${String(error)}\n`);
  process.exit(1);
});
