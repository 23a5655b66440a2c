import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny HTTP server on 127.0.0.1:0 answering scripted replies, for exact status/body tests. */

export interface ScriptedReply {
  status: number;
  /** A string is sent as-is; anything else as JSON. Omitted: empty body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before answering. */
  delayMs?: number;
  /** Destroy the socket instead of answering (connection reset mid-request). */
  reset?: boolean;
  /** Send the headers and the body's first byte, then nothing more until the client gives up. */
  stallBody?: boolean;
  /** Answer only once this promise resolves. */
  until?: Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** When the request arrived (performance.now()), to measure the client's waits between attempts. */
  at: number;
}

export type ReplyFor = (request: RecordedRequest, index: number) => ScriptedReply;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  inFlight(): number;
  maxInFlight(): number;
  /** Highest number of requests in flight at once among those of a tracked group. */
  maxInFlightOf(group: string): number;
  close(): Promise<void>;
}

/** Replies in order; the last one repeats. */
export const inOrder =
  (...replies: ScriptedReply[]): ReplyFor =>
  (_request, index) =>
    replies[Math.min(index, replies.length - 1)] as ScriptedReply;

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

async function answer(response: ServerResponse, reply: ScriptedReply): Promise<void> {
  if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
  if (reply.until) await reply.until;
  if (reply.reset) {
    response.socket?.destroy();
    return;
  }
  const text =
    reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const isJson = reply.body !== undefined && typeof reply.body !== 'string';
  response.writeHead(reply.status, {
    ...(isJson ? { 'content-type': 'application/json' } : {}),
    ...reply.headers,
  });
  if (reply.stallBody) {
    response.write(text.slice(0, 1));
    await new Promise((resolve) => response.on('close', resolve));
    return;
  }
  response.end(text);
}

/** `track` names groups of requests (`METHOD path` matched by a RegExp) whose concurrency is measured. */
export async function startScriptedServer(
  replyFor: ReplyFor,
  track: Record<string, RegExp> = {},
): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const active = new Set<RecordedRequest>();
  let maxInFlight = 0;
  const maxByGroup = new Map<string, number>();
  const server = createServer(async (request, response) => {
    const at = performance.now();
    const recorded: RecordedRequest = {
      at,
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: await readBody(request),
    };
    requests.push(recorded);
    active.add(recorded);
    maxInFlight = Math.max(maxInFlight, active.size);
    for (const [group, pattern] of Object.entries(track)) {
      const count = [...active].filter((entry) => pattern.test(`${entry.method} ${entry.path}`)).length;
      maxByGroup.set(group, Math.max(maxByGroup.get(group) ?? 0, count));
    }
    try {
      await answer(response, replyFor(recorded, requests.length - 1));
    } finally {
      active.delete(recorded);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inFlight: () => active.size,
    maxInFlight: () => maxInFlight,
    maxInFlightOf: (group) => maxByGroup.get(group) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A base address where nothing listens (a port just released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
