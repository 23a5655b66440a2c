/**
 * The bare stack (issue 29, "cost above the libraries"): the bot's libraries doing what the bot
 * did, without the bot. Bare Bolt with the bot's receiver options acks each mention; after the
 * ack one ky instance sends the run's service requests (its start and its status polls) and
 * Bolt's Web client, built from the bot's own `webClientOptions`, sends the run's Slack calls. No
 * turn logic, no store, no metrics. How many of each a run makes comes from the bot's run of the
 * same size (floor-plan.ts). Forked by floor-run.ts on the table's runtime; loopback, port 0.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { App, HTTPReceiver } from '@slack/bolt';
import ky, { type KyInstance, type Options } from 'ky';
import { localBotEnv } from '../dev/local-stack/bot-env.js';
import { DEFAULT_RETRY_POLICY, kyRetrySettings } from '../src/agent-api/retry-policy.js';
import { keepAliveFetch } from '../src/agent-api/service-http.js';
import { type Config, loadConfig } from '../src/config/load-config.js';
import { createLogger, toSlackLogger } from '../src/logging.js';
import { webClientOptions } from '../src/slack/web-client.js';
import { callArgs, type FloorExchanges, type FloorPlan, shareOf } from './floor-plan.js';
import { BENCH_SCRIPT, BENCH_SIGNING_SECRET, type FloorReply, type FloorRequest } from './protocol.js';

/** A run of the bench's script is terminal this long after its start (then every poll answers at once). */
const RUN_LENGTH_MS = (BENCH_SCRIPT.steps + 1) * BENCH_SCRIPT.stepMs + 50;

const send = (reply: FloorReply) => process.send?.(reply);

/**
 * ky as src/agent-api/service-http.ts configures it: its own pooled fetch (`keepAliveFetch`: one
 * keep-alive undici Agent with a connection per request-budget slot and the body timeout, the
 * undici package's fetch where Node's bundled undici is older than 7), no redirects, and the two
 * headers set on ky's request in `beforeRequest`. Not its factory: that wraps ky in our own
 * attempts, budget and error mapping, which is the cost this floor leaves out.
 */
function serviceKy(config: Config): KyInstance {
  const { maxInFlight, requestTimeoutMs, statusTimeoutMs, token } = config.agent;
  const fetch = keepAliveFetch(maxInFlight, Math.max(requestTimeoutMs, statusTimeoutMs));
  return ky.create({
    prefixUrl: config.agent.baseUrl,
    redirect: 'manual',
    fetch,
    hooks: {
      beforeRequest: [
        (request) => {
          request.headers.set('accept', 'application/json');
          request.headers.set('x-api-token', token);
        },
      ],
    },
  });
}

/**
 * A/B knobs of the floor alone (not the bot's settings): `BENCH_FLOOR_KY_TIMEOUT=off` drops ky's
 * per-call timeout, `BENCH_FLOOR_WEB_RETRIES=0` the Web client's retries. What a library option
 * would save, measured on the bare stack.
 */
const kyTimeoutOff = process.env.BENCH_FLOOR_KY_TIMEOUT === 'off';
const webRetries = process.env.BENCH_FLOOR_WEB_RETRIES;

/** Per-call ky options as the bot's client passes them: a start may retry (ky's settings), a poll not. */
function callOptions(config: Config) {
  const retry = { ...kyRetrySettings(DEFAULT_RETRY_POLICY, Math.random), limit: DEFAULT_RETRY_POLICY.limit };
  const start = (message: string): Options => ({
    method: 'post',
    json: { context: { message } },
    timeout: kyTimeoutOff ? false : config.agent.requestTimeoutMs,
    retry,
  });
  // The bot's poll scheduler passes a signal (to abort on stop) and no retry (composition/service-polling.ts).
  const poll = (signal: AbortSignal): Options => ({
    method: 'get',
    timeout: kyTimeoutOff ? false : config.agent.statusTimeoutMs,
    retry: 0,
    signal,
  });
  return { start, poll };
}

/**
 * At most `limit` service requests at once, as the pool has connections: the bot's request budget
 * keeps its calls out of the pool's queue, where ky's timeout would run while they wait (5,000
 * starts at once timed out there). A plain counter and a queue of waiters; no retry, no priorities.
 */
function slots(limit: number) {
  let busy = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (busy >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else busy += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else busy -= 1;
    }
  };
}

async function main(): Promise<void> {
  const init = await new Promise<Extract<FloorRequest, { type: 'init' }>>((resolve) => {
    process.once('message', (raw) => resolve(raw as Extract<FloorRequest, { type: 'init' }>));
  });
  const config = loadConfig(
    localBotEnv(
      { ...init, signingSecret: BENCH_SIGNING_SECRET },
      { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' },
    ),
  );
  const slackLogger = toSlackLogger(createLogger({ level: config.logLevel }));
  const receiver = new HTTPReceiver({
    signingSecret: BENCH_SIGNING_SECRET,
    endpoints: '/slack/events',
    processBeforeResponse: false,
    logger: slackLogger,
  });
  const app = new App({
    token: config.slack.botToken,
    receiver,
    logger: slackLogger,
    clientOptions: {
      ...webClientOptions(config, slackLogger),
      ...(webRetries === undefined ? {} : { retryConfig: { retries: Number(webRetries) } }),
    },
    tokenVerificationEnabled: false,
    convoStore: false,
    botId: 'B0BOT',
    botUserId: 'UBOT',
  });
  const http = serviceKy(config);
  const slot = slots(config.agent.maxInFlight);
  const options = callOptions(config);
  const runPath = `v2/ai-agent/${encodeURIComponent(config.agent.agentId)}`;

  let plan: FloorPlan | undefined;
  let lastSessionId: string | undefined;
  let next = 0;
  let finished = 0;
  let done: FloorExchanges = { mentions: 0, service: 0, slack: 0, failed: 0 };
  const exchange = async <T>(kind: 'service' | 'slack', what: string, call: () => Promise<T>) => {
    done[kind] += 1;
    try {
      return await call();
    } catch (error) {
      done.failed += 1;
      const detail = (error as { data?: { error?: string } }).data?.error ?? (error as Error).name;
      const key = `${kind} ${what}: ${detail}`;
      done.failures = { ...done.failures, [key]: (done.failures?.[key] ?? 0) + 1 };
      return undefined;
    }
  };

  /** One run's share of the plan: its start, then its polls once the run is over, then its Slack calls. */
  const runOnce = async (
    current: FloorPlan,
    index: number,
    run: { channel: string; threadTs: string },
    text: string,
  ) => {
    const controller = new AbortController();
    // A run with no start of its own (a window where not every run had started) polls the last one started.
    let sessionId = lastSessionId;
    for (let i = shareOf(current.rates.starts, index); i > 0; i -= 1) {
      const body = await exchange('service', 'start', () =>
        slot(async () => JSON.parse(await http(runPath, options.start(text)).text())),
      );
      sessionId = (body as { sessionId?: string } | undefined)?.sessionId ?? sessionId;
      lastSessionId = sessionId;
    }
    const polls = shareOf(current.rates.polls, index);
    if (polls > 0 && sessionId !== undefined) {
      // The bot's polls are paced by the simulator's long poll; the floor's come after the run's end,
      // each answered at once, so the pool never waits on a held poll. Same requests, same answers' shape.
      await sleep(RUN_LENGTH_MS);
      for (let i = 0; i < polls; i += 1) {
        await exchange('service', 'status', () =>
          slot(async () =>
            JSON.parse(await http(`${runPath}/${sessionId}`, options.poll(controller.signal)).text()),
          ),
        );
      }
    }
    for (const [method, rate] of Object.entries(current.rates.slack)) {
      const sample = current.samples[method];
      if (sample === undefined) continue;
      for (let i = shareOf(rate, index); i > 0; i -= 1) {
        await exchange('slack', method, () => app.client.apiCall(method, callArgs(sample, run)));
      }
    }
  };

  app.event('app_mention', async ({ event }) => {
    const current = plan;
    if (current === undefined) return;
    const index = next;
    next += 1;
    done.mentions += 1;
    await runOnce(current, index, { channel: event.channel, threadTs: event.ts }, event.text);
    finished += 1;
    if (finished === current.runs) send({ type: 'done', exchanges: done });
  });

  process.on('message', (raw) => {
    const request = raw as FloorRequest;
    if (request.type !== 'plan') return;
    plan = request.plan;
    next = 0;
    finished = 0;
    done = { mentions: 0, service: 0, slack: 0, failed: 0 };
    send({ type: 'planned' });
  });
  const server = (await receiver.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', url: `http://127.0.0.1:${port}` });
  const stop = () => {
    void app.stop().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench floor failed to start: ${String(error)}\n`);
  process.exit(1);
});
