import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIM_TOKENS, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { type SlackStandin, startSlackStandin } from '../../dev/slack-standin/index.js';
import { closedPortUrl } from '../agent-api/support/scripted-server.js';
import { harnessEnv } from '../support/bridge-harness.js';
import { killAllChildBots, spawnBot, startChildBot } from '../support/child-bot.js';

/**
 * Start-up checks the agent service side too (DESIGN, "Start-up checks both sides"): `npm start`
 * as a process against the simulator, or against servers that are not the service.
 */

const servers: Server[] = [];

/** A loopback HTTP server answering every request with `listener`; closed after the test. */
async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('start-up checks the agent service with /v2/whoami', () => {
  let sim: Simulator;
  let slack: SlackStandin;

  beforeAll(async () => {
    [sim, slack] = await Promise.all([startSimulator({ quiet: true }), startSlackStandin()]);
  });
  afterEach(async () => {
    await killAllChildBots();
    await Promise.all(
      servers.splice(0).map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all([sim?.close(), slack?.close()]);
  });

  /** Runs the bot to its exit; returns stderr after checking exit 1 and no leaked secret. */
  async function failsToStart(env: Record<string, string>): Promise<string> {
    const bot = spawnBot(harnessEnv(sim, slack, env));
    const exit = await bot.exited;
    expect(exit.code, bot.describe()).toBe(1);
    const output = bot.stdout() + bot.stderr();
    for (const token of Object.values(SIM_TOKENS)) expect(output).not.toContain(token);
    return bot.stderr();
  }

  it('exits 1 naming AGENT_API_TOKEN when the service rejects it', async () => {
    const stderr = await failsToStart({ AGENT_API_TOKEN: 'wrong' });
    expect(stderr).toContain('start-up failed');
    expect(stderr).toMatch(
      /rejected AGENT_API_TOKEN \(GET \/v2\/whoami answered HTTP 403: “Insufficient privileges”\)/,
    );
  });

  it('exits 1 naming AGENT_API_URL and both regions on a region mismatch', async () => {
    const stderr = await failsToStart({ AGENT_API_TOKEN: SIM_TOKENS.otherRegion });
    expect(stderr).toContain(
      `AGENT_API_TOKEN belongs to an account in region eu-central-1, but AGENT_API_URL (${sim.url}) is the API address of region us-east-1`,
    );
  });

  it('exits 1 naming AGENT_API_URL when the address answers something other than the service', async () => {
    const notFound = await serve((_req, res) => res.writeHead(404).end('<html>Not Found</html>'));
    const stderr = await failsToStart({ AGENT_API_URL: notFound });
    expect(stderr).toContain(`AGENT_API_URL (${notFound}) does not answer like the agent service`);
    expect(stderr).toContain('HTTP 404');
  });

  it('exits 1 naming AGENT_API_URL when a 200 is not an identity (a web page)', async () => {
    const page = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'),
    );
    const stderr = await failsToStart({ AGENT_API_URL: page });
    expect(stderr).toContain(`AGENT_API_URL (${page}) does not answer like the agent service`);
  });

  it.each([
    ['in maintenance (503)', 'maintenance'],
    ['unreachable (connection refused)', 'refused'],
    ['not answering in time', 'silent'],
    // The spec makes both WhoAmI members optional: `{}` names no account, but is no wrong address.
    ['answering {} (no account named)', 'empty'],
  ])('only warns when the service is %s, and starts healthy', async (_name, kind) => {
    let url: string;
    if (kind === 'empty') {
      url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    } else if (kind === 'maintenance') {
      url = await serve((_req, res) =>
        res
          .writeHead(503, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'The service is temporarily shut down for maintenance' })),
      );
    } else if (kind === 'refused') url = await closedPortUrl();
    else url = await serve(() => undefined); // holds every request
    const started = Date.now();
    const bot = await startChildBot(
      harnessEnv(sim, slack, { AGENT_API_URL: url, AGENT_REQUEST_TIMEOUT_MS: '800', LOG_LEVEL: 'info' }),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await fetch(`${bot.url}/healthz`)).status).toBe(200);
    const warning = bot
      .logs()
      .find((line) => String(line.msg).startsWith('agent service could not be checked'));
    expect(warning, bot.describe()).toMatchObject({ agentApiUrl: url });
    if (kind === 'empty')
      expect(warning?.reason).toMatch(/came back without an account id or an account name/);
    expect(bot.logs().some((line) => line.msg === 'slack-agent-bridge started')).toBe(true);
  });

  it('starts and logs the identity when the token and address are right', async () => {
    const bot = await startChildBot(harnessEnv(sim, slack, { LOG_LEVEL: 'info' }));
    expect(bot.logs().find((line) => line.msg === 'agent service identity checked')).toMatchObject({
      accountId: 200001,
      accountName: 'Production',
    });
  });
});
