import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

/** Path of the WebSocket URL that apps.connections.open hands out. */
export const SOCKET_PATH = '/socket';

/** An envelope Slack sends over Socket Mode. https://docs.slack.dev/apis/events-api/using-socket-mode */
export interface SocketEnvelope {
  /** Generated when left out. */
  envelope_id?: string;
  type: 'events_api' | 'slash_commands' | 'interactive';
  /** events_api: the event_callback body; slash_commands: the command's fields; interactive: the payload. */
  payload: unknown;
  /** Default: false for events, true for commands and interactions (as Slack sends them). */
  accepts_response_payload?: boolean;
  /** events_api only. Default 0. */
  retry_attempt?: number;
  /** events_api only. Default ''. */
  retry_reason?: string;
}

/** What the client sent back for an envelope. */
export interface SocketAck {
  envelope_id: string;
  payload?: unknown;
}

/** Options for {@link SocketModeStandin}. */
export interface SocketModeStandinOptions {
  appId: string;
  /** How often the server pings each client, as Slack does. Default 10,000 ms. */
  pingIntervalMs?: number;
}

interface PendingAck {
  resolve: (ack: SocketAck) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Slack's Socket Mode side: single-use tickets from apps.connections.open, a `hello` on connect,
 * server pings, envelopes out and acks back.
 */
export class SocketModeStandin {
  /** Every ack received, in order. */
  readonly acks: SocketAck[] = [];
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly clients: WebSocket[] = [];
  private readonly pending = new Map<string, PendingAck>();
  private readonly connectionWaiters = new Set<() => void>();
  private readonly pinger: NodeJS.Timeout;

  constructor(private readonly options: SocketModeStandinOptions) {
    this.pinger = setInterval(() => {
      for (const client of this.clients) client.ping(Buffer.from(`ping ${Date.now()}`));
    }, options.pingIntervalMs ?? 10_000);
    this.pinger.unref();
  }

  /** A new single-use ticket for the WebSocket URL. */
  issueTicket(): string {
    const ticket = randomBytes(16).toString('hex');
    this.tickets.add(ticket);
    return ticket;
  }

  /** Takes an HTTP upgrade for the socket path; refuses unknown or used tickets with 401. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== SOCKET_PATH || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.server.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    this.clients.push(ws);
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onClientMessage(data.toString());
    });
    ws.on('close', () => {
      const i = this.clients.indexOf(ws);
      if (i >= 0) this.clients.splice(i, 1);
    });
    ws.on('error', () => ws.terminate());
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.clients.length,
        debug_info: { host: 'applink-standin', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.options.appId },
      }),
    );
    for (const wake of this.connectionWaiters) wake();
  }

  private onClientMessage(text: string): void {
    let ack: SocketAck;
    try {
      ack = JSON.parse(text) as SocketAck;
    } catch {
      return;
    }
    if (typeof ack.envelope_id !== 'string') return;
    this.acks.push(ack);
    const waiting = this.pending.get(ack.envelope_id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.pending.delete(ack.envelope_id);
    waiting.resolve(ack);
  }

  /** True while at least one client is connected. */
  connected(): boolean {
    return this.clients.some((c) => c.readyState === c.OPEN);
  }

  /** Resolves once a client is connected (at once if one is); rejects after `timeoutMs` (default 5,000). */
  waitForConnection({ timeoutMs = 5_000 }: { timeoutMs?: number } = {}): Promise<void> {
    if (this.connected()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.connectionWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.connectionWaiters.delete(done);
        reject(new Error(`no Socket Mode connection within ${timeoutMs} ms`));
      }, timeoutMs);
      this.connectionWaiters.add(done);
    });
  }

  /**
   * Sends an envelope to the newest connected client and resolves with its ack. Rejects when no
   * client is connected or no ack arrives within `timeoutMs` (default 3,000: Slack's ack deadline).
   */
  send(envelope: SocketEnvelope, { timeoutMs = 3_000 }: { timeoutMs?: number } = {}): Promise<SocketAck> {
    const client = [...this.clients].reverse().find((c) => c.readyState === c.OPEN);
    if (!client) return Promise.reject(new Error('no Socket Mode client connected'));
    const isEvent = envelope.type === 'events_api';
    const full = {
      envelope_id: envelope.envelope_id ?? randomUUID(),
      type: envelope.type,
      payload: envelope.payload,
      accepts_response_payload: envelope.accepts_response_payload ?? !isEvent,
      ...(isEvent
        ? { retry_attempt: envelope.retry_attempt ?? 0, retry_reason: envelope.retry_reason ?? '' }
        : {}),
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(full.envelope_id);
        reject(new Error(`no ack for envelope ${full.envelope_id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(full.envelope_id, { resolve, reject, timer });
      client.send(JSON.stringify(full));
    });
  }

  /** Sends Slack's `disconnect` message (the client closes and reconnects with a new ticket). */
  requestReconnect(reason: 'refresh_requested' | 'warning' | 'link_disabled' = 'refresh_requested'): void {
    for (const client of this.clients) {
      client.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-standin' } }));
    }
  }

  /**
   * Closes every connection with a close frame (so a client mid-handshake finishes cleanly), waits up
   * to `graceMs` for the clients to answer, then drops what is left; fails pending sends.
   */
  async close(graceMs = 500): Promise<void> {
    clearInterval(this.pinger);
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error(`stand-in closed before envelope ${id} was acked`));
    }
    this.pending.clear();
    const closing = this.clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.readyState === client.CLOSED) return resolve();
          const timer = setTimeout(() => {
            client.terminate();
            resolve();
          }, graceMs);
          client.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          if (client.readyState === client.OPEN) client.close(1001, 'going away');
        }),
    );
    await Promise.all(closing);
    this.clients.length = 0;
    this.server.close();
  }
}
