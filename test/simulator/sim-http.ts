/** Small HTTP helpers for the simulator's tests: real requests with the global fetch. */
import { expect } from 'vitest';
import { SIM_AGENTS, SIM_TOKENS, type Simulator } from '../../dev/simulator/index.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes and assert on them
type Json = any;

export interface CallResult {
  status: number;
  body: Json;
  text: string;
  headers: Headers;
  /** Milliseconds from sending to the whole body read. */
  ms: number;
}

export interface CallOptions {
  /** Token to send; null sends no x-api-token header. Default: the agent token. */
  token?: string | null;
  body?: unknown;
  /** Raw body text, sent as is (wins over body). */
  rawBody?: string;
  signal?: AbortSignal;
}

/** One request to the simulator; the body is parsed as JSON when it is JSON. */
export async function call(
  sim: Simulator,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? SIM_TOKENS.agent : opts.token;
  if (token !== null) headers['x-api-token'] = token;
  let payload: string | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers,
    ...(payload !== undefined && { body: payload }),
    ...(opts.signal && { signal: opts.signal }),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers, ms: performance.now() - started };
}

/** Body of a run request. */
export const runRequest = (message: string) => ({ context: { message } });

/** Starts a run and returns its session id (fails the test on anything but 200). */
export async function startRun(
  sim: Simulator,
  message: string,
  agentId: string = SIM_AGENTS.api,
): Promise<string> {
  const res = await call(sim, 'POST', `/v2/ai-agent/${agentId}`, { body: runRequest(message) });
  if (res.status !== 200) throw new Error(`run start answered ${res.status}: ${res.text}`);
  return res.body.sessionId as string;
}

/** Polls until a terminal status; returns every status body seen. */
export async function pollToEnd(
  sim: Simulator,
  sessionId: string,
  agentId: string = SIM_AGENTS.api,
): Promise<Json[]> {
  const seen = [];
  for (let i = 0; i < 200; i += 1) {
    const res = await call(sim, 'GET', `/v2/ai-agent/${agentId}/${sessionId}`);
    if (res.status !== 200) throw new Error(`status poll answered ${res.status}: ${res.text}`);
    seen.push(res.body);
    if (['done', 'error', 'canceled'].includes(res.body.status)) return seen;
  }
  throw new Error('run never ended');
}

/** The service's usual error body shape. */
export const errorBodyShape = {
  errorCode: expect.any(String),
  message: expect.any(String),
  requestId: expect.any(String),
  parameters: {},
};
