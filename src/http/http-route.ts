import type { IncomingMessage, ServerResponse } from 'node:http';

/** A plain node:http route, served as a Bolt custom route (HTTP mode) or by our own server (Socket Mode). */
export interface HttpRoute {
  path: string;
  method: string;
  handler(req: IncomingMessage, res: ServerResponse): void;
}
