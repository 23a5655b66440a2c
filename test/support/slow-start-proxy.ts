import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A run start or follow-up: `POST /v2/ai-agent/<agent>` or `POST /v2/ai-agent/<agent>/<session>`. */
const RUN_START = /^\/v2\/ai-agent\/[^/]+(\/[^/]+)?\/?$/;

/**
 * A loopback HTTP proxy in front of the simulator that can hold run starts and follow-ups for a
 * while before forwarding them: the service taking its time to start a run (the bot's turn is
 * stored and waiting for its session id meanwhile). Everything else passes straight through.
 */
export async function startSlowStartProxy(targetUrl: string) {
  let startDelayMs = 0;
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
      const isStart =
        req.method === 'POST' && RUN_START.test(path) && !/\/(enable|disable|feedback)$/.test(path);
      if (isStart && startDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, startDelayMs));
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
          headers[name] = value;
        }
      }
      const upstream = await fetch(`${targetUrl}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const text = Buffer.from(await upstream.arrayBuffer());
      const out: Record<string, string> = {};
      for (const [name, value] of upstream.headers) {
        if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) {
          out[name] = value;
        }
      }
      res.writeHead(upstream.status, out);
      res.end(text);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** From now on run starts and follow-ups wait this long before reaching the simulator. */
    setStartDelay(ms: number) {
      startDelayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
