import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { simDirective, startSimulator } from '../../dev/simulator/index.js';
import { CONNECTION_BLOCKS } from '../../src/slack/views/connection-form.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { agentCommandReply } from '../support/command-reply.js';

/**
 * DESIGN "Service addresses", end to end: only the service's hosts, and no redirect followed. A loopback
 * "service" answers 302 pointing at a second loopback server, which must receive nothing (the
 * token never travels there); the connection form and a run each get a sentence naming the
 * address that redirected.
 */

/** Obviously fake: 32 bytes of 7s. */
const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
const TYPED_TOKEN = 'typed-token-not-real';

interface Recorder {
  url: string;
  /** Every request's method, path and x-api-token. */
  seen: Array<{ method: string; path: string; token: string | undefined }>;
  close(): Promise<void>;
}

type Reply = { status: number; headers?: Record<string, string>; body?: string };

/** Answers a request itself (after reading its body); true when it did. */
type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<boolean>;

/** A loopback server; `handle` answers first if given, else `answer` decides each reply. */
async function startServer(answer: (path: string) => Reply, handle?: Handler): Promise<Recorder> {
  const seen: Recorder['seen'] = [];
  const server: Server = createServer((req, res) => {
    const token = req.headers['x-api-token'];
    seen.push({
      method: req.method ?? '',
      path: req.url ?? '',
      token: typeof token === 'string' ? token : undefined,
    });
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (handle && (await handle(req, res, Buffer.concat(chunks)))) return;
      const reply = answer(req.url ?? '/');
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body ?? '');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const identity = JSON.stringify({ accountId: 7, accountName: 'Elsewhere' });

describe('service redirects are never followed', () => {
  let harness: Harness | undefined;
  const servers: Recorder[] = [];
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function elsewhereAndRedirector(passWhoami: boolean) {
    const elsewhere = await startServer(() => ({
      status: 200,
      body: identity,
      headers: { 'content-type': 'application/json' },
    }));
    const redirector = await startServer(
      (path): Reply =>
        passWhoami && path === '/v2/whoami'
          ? { status: 200, body: identity, headers: { 'content-type': 'application/json' } }
          : { status: 302, headers: { location: `${elsewhere.url}${path}` } },
    );
    servers.push(elsewhere, redirector);
    return { elsewhere, redirector };
  }

  it('the connection form: refused under the address with a sentence naming it; the other host gets nothing', async () => {
    const { elsewhere, redirector } = await elsewhereAndRedirector(false);
    harness = await startHarness({ env: { STATE_ENCRYPTION_KEY: TEST_KEY } });
    const reply = await agentCommandReply(harness, 'connections add', 'UADMINLIST', 'C0GENERAL');
    expect(reply).toContain('form');
    const answer = await harness.submitFormFields(
      {
        [CONNECTION_BLOCKS.alias]: 'moved',
        [CONNECTION_BLOCKS.address]: redirector.url,
        [CONNECTION_BLOCKS.token]: TYPED_TOKEN,
      },
      { user: 'UADMINLIST' },
    );
    const body = JSON.parse(answer.body) as { response_action: string; errors?: Record<string, string> };
    expect(body.response_action).toBe('errors');
    const under = body.errors?.[CONNECTION_BLOCKS.address] ?? '';
    expect(under).toContain(redirector.url);
    expect(under).toMatch(/redirect \(HTTP 302\).*never follows/);
    expect(redirector.seen.map((request) => request.path)).toEqual(['/v2/whoami']);
    expect(elsewhere.seen).toEqual([]);
    expect(await agentCommandReply(harness, 'connections', 'UADMINLIST', 'C0GENERAL')).not.toContain('moved');
  });

  it('the connection form refuses private, link-local and unknown hosts under the field; nothing is sent', async () => {
    harness = await startHarness({ env: { STATE_ENCRYPTION_KEY: TEST_KEY } });
    for (const address of ['https://10.0.0.5', 'https://169.254.169.254', 'https://logs.example.com']) {
      await agentCommandReply(harness, 'connections add', 'UADMINLIST', 'C0GENERAL');
      const answer = await harness.submitFormFields(
        {
          [CONNECTION_BLOCKS.alias]: 'inside',
          [CONNECTION_BLOCKS.address]: address,
          [CONNECTION_BLOCKS.token]: TYPED_TOKEN,
        },
        { user: 'UADMINLIST' },
      );
      const body = JSON.parse(answer.body) as { response_action: string; errors?: Record<string, string> };
      expect(body.response_action, address).toBe('errors');
      expect(body.errors?.[CONNECTION_BLOCKS.address], address).toMatch(
        /is not one of the agent service's regional API hosts \(api\.logz\.io, .*CONNECTION_ALLOWED_HOSTS/,
      );
    }
  });

  it('a run whose start is redirected: a notice naming the address; the other host gets nothing', async () => {
    const { elsewhere, redirector } = await elsewhereAndRedirector(true);
    harness = await startHarness({ env: { AGENT_API_URL: redirector.url } });
    const { channel, threadTs } = await harness.mention('why are errors up?');
    const [notice] = await harness.waitForOutcome(channel, threadTs);
    const text = harness.visibleText(notice as never);
    expect(text).toContain(redirector.url);
    expect(text).toMatch(/answered with a redirect \(HTTP 302\), which the bot never follows/);
    expect(redirector.seen.some((request) => request.method === 'POST')).toBe(true);
    expect(elsewhere.seen).toEqual([]);
  });

  it('a poll redirected after the run started: a notice naming the address; the other host gets nothing', async () => {
    const sim = await startSimulator({ quiet: true, longPollMs: 300 });
    const elsewhere = await startServer(() => ({ status: 200, body: '{}' }));
    // The service answers whoami and the run start itself, then redirects every status poll.
    const front = await startServer(
      () => ({ status: 500 }),
      async (req, res, body) => {
        const path = req.url ?? '/';
        if (req.method === 'GET' && path !== '/v2/whoami') {
          res.writeHead(302, { location: `${elsewhere.url}${path}` });
          res.end();
          return true;
        }
        const upstream = await fetch(`${sim.url}${path}`, {
          method: req.method ?? 'GET',
          headers: {
            'x-api-token': String(req.headers['x-api-token'] ?? ''),
            'content-type': 'application/json',
          },
          ...(body.length > 0 ? { body } : {}),
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
        return true;
      },
    );
    servers.push(elsewhere, front, { url: sim.url, seen: [], close: () => sim.close() });
    harness = await startHarness({ env: { AGENT_API_URL: front.url } });
    const { channel, threadTs } = await harness.mention(
      `why? ${simDirective({ steps: 2, stepMs: 50, answer: 'x' })}`,
    );
    const [notice] = await harness.waitForOutcome(channel, threadTs);
    expect(sim.runs()).toHaveLength(1);
    const text = harness.visibleText(notice as never);
    expect(text).toContain(front.url);
    expect(text).toMatch(/answered with a redirect \(HTTP 302\), which the bot never follows/);
    expect(
      front.seen.some((request) => request.method === 'GET' && request.path.startsWith('/v2/ai-agent/')),
    ).toBe(true);
    expect(elsewhere.seen).toEqual([]);
  });
});
