/**
 * The load generator, forked by the orchestrator (one process posts mentions, another probes, so
 * neither perturbs the other's timing). Everything it sends is a signed event_callback on
 * POST /slack/events, as Slack delivers it.
 * - `mentions`: N app_mention events spread over the bench channels, each a new thread, at a
 *   bounded rate with a concurrency limit; replies with the threads (for delivery matching).
 * - `probe`: until `stop-probe`, one ordinary channel message (no mention, so both apps only ack)
 *   every `intervalMs`, alternating between the bot and the bare Bolt app; replies with round trips.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { appMentionEvent, eventCallback, messageEvent } from '../dev/slack-standin/event-builders.js';
import { postEvent } from '../dev/slack-standin/signed-post.js';
import {
  BENCH_CHANNELS,
  BENCH_SIGNING_SECRET,
  type LoadReply,
  type LoadRequest,
  type MentionRef,
  promptFor,
} from './protocol.js';
import { summarise } from './stats.js';

/** Slack gives up on an ack after 3 s; the bench waits a little longer before counting a failure. */
const POST_TIMEOUT_MS = 5_000;

const send = (reply: LoadReply) => process.send?.(reply);

/** POSTs one signed event; resolves with the round trip in ms, or undefined when it failed. */
async function ackMs(appUrl: string, event: Record<string, unknown>): Promise<number | undefined> {
  try {
    const result = await postEvent(appUrl, BENCH_SIGNING_SECRET, eventCallback(event), {
      timeoutMs: POST_TIMEOUT_MS,
    });
    return result.status === 200 ? result.ms : undefined;
  } catch {
    return undefined;
  }
}

const channelName = (index: number) => `CBENCH${String(index % BENCH_CHANNELS).padStart(3, '0')}`;

async function postMentions(request: Extract<LoadRequest, { type: 'mentions' }>): Promise<void> {
  const { size, ratePerSecond, concurrency } = request;
  const appUrls = request.appUrls ?? [request.appUrl];
  // Unique thread timestamps per size, in Slack's "seconds.micro" shape.
  const base = Math.floor(Date.now() / 1000);
  const mentions: MentionRef[] = Array.from({ length: size }, (_, i) => ({
    id: `${size}-${i}`,
    channel: channelName(i),
    threadTs: `${base}.${String(i).padStart(6, '0')}`,
  }));
  const acks: number[] = [];
  const acksPerApp: number[][] = appUrls.map(() => []);
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < size; i = next++) {
      const mention = mentions[i] as MentionRef;
      const dueIn = started + (i * 1000) / ratePerSecond - performance.now();
      if (dueIn > 0) await sleep(dueIn);
      const event = appMentionEvent({
        channel: mention.channel,
        ts: mention.threadTs,
        text: promptFor(mention.id),
      });
      const ms = await ackMs(appUrls[i % appUrls.length] as string, event);
      if (ms === undefined) failed += 1;
      else {
        acks.push(ms);
        acksPerApp[i % appUrls.length]?.push(ms);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, size) }, worker));
  const seconds = (performance.now() - started) / 1000;
  const ackMsPerApp = request.appUrls ? acksPerApp.map(summarise) : undefined;
  send({
    type: 'posted',
    mentions,
    ackMs: summarise(acks),
    ...(ackMsPerApp ? { ackMsPerApp } : {}),
    failed,
    seconds,
  });
}

let probing: AbortController | undefined;

async function probe(request: Extract<LoadRequest, { type: 'probe' }>): Promise<void> {
  const controller = new AbortController();
  probing = controller;
  const samples = { bot: [] as number[], bare: [] as number[] };
  let failed = 0;
  let seq = 0;
  const base = Math.floor(Date.now() / 1000) + 1;
  const once = async (target: 'bot' | 'bare') => {
    // The same payload shape for both apps: an ordinary top-level message that addresses nobody.
    const ts = `${base}.${String(900_000 + (seq++ % 100_000)).padStart(6, '0')}`;
    const event = messageEvent({ channel: 'CPROBE', ts, text: 'anyone seen the deploy notes?' });
    const ms = await ackMs(request.targets[target], event);
    if (ms === undefined) failed += 1;
    else samples[target].push(ms);
  };
  for (let pair = 0; !controller.signal.aborted; pair += 1) {
    // Alternate which app goes first, so neither always probes right after the other.
    const order: Array<'bot' | 'bare'> = pair % 2 === 0 ? ['bot', 'bare'] : ['bare', 'bot'];
    for (const target of order) {
      await once(target);
      await sleep(request.intervalMs);
    }
  }
  send({ type: 'probes', ...samples, failed });
}

process.on('message', (raw) => {
  const request = raw as LoadRequest;
  if (request.type === 'mentions') void postMentions(request);
  if (request.type === 'probe') void probe(request);
  if (request.type === 'stop-probe') probing?.abort();
});
process.once('disconnect', () => process.exit(0));
send({ type: 'ready' });
