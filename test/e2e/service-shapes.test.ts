import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SIM_ADMIN_EMAILS, SIM_AGENTS, SIM_TOKENS, simDirective } from '../../dev/simulator/index.js';
import type { StoredResponse } from '../../dev/slack-standin/index.js';
import type { Logger } from '../../src/runtime/logger.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * The bot against the simulator answering as the real service does beyond the seed: token-less
 * creation, older export hits, error bodies in every shape, structured output (DESIGN, "Facts
 * about the real service").
 */

function readable(reply: StoredResponse): string {
  const blocks = reply.blocks?.map((block) => (block.text as { text?: string } | undefined)?.text ?? '');
  return (blocks?.join('\n') ?? reply.text ?? '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

async function run(harness: Harness, text: string) {
  const posted = await harness.command(text, { user: 'UADMINLIST' });
  expect(posted.status).toBe(200);
  const [reply] = await harness.slack.waitFor(
    () => {
      const list = harness.slack.responses(posted.responseId);
      return list.length > 0 ? list : undefined;
    },
    { timeoutMs: 10_000, description: `the reply to /agent ${text}` },
  );
  return readable(reply as StoredResponse);
}

const lines: string[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (fields, message) => {
    lines.push(
      `${message ?? ''} ${JSON.stringify(fields, (_k, v) => (v instanceof Error ? { message: v.message } : v))}`,
    );
  },
  error: () => undefined,
  child: () => logger,
};

describe('account commands and exports', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ logger });
    harness.slack.addUser({ id: 'UADMINLIST' });
  });
  afterAll(async () => harness?.stop());
  beforeEach(() => {
    harness.sim.reset();
    lines.length = 0;
  });

  it('create without a retention sends the default of 7 days and no sharing accounts', async () => {
    const text = await run(harness, `accounts create Platform ${SIM_ADMIN_EMAILS[0]}`);
    const created = harness.sim.accounts().find((a) => a.accountName === 'Platform');
    // The simulator refuses a creation without sharingObjectsAccounts or retentionDays.
    expect(created).toMatchObject({ retentionDays: 7, sharingObjectsAccounts: [], maxDailyGB: 0 });
    expect(text).toContain(
      `Created sub account *Platform* (id ${created?.accountId}), retention 7 days (the default).`,
    );
  });

  it('a creation answered without a token is a created account, not a failure to retry', async () => {
    harness.sim.faults.createWithoutToken = true;
    const text = await run(harness, `accounts create Platform ${SIM_ADMIN_EMAILS[0]} 30 2`);
    const created = harness.sim.accounts().filter((a) => a.accountName === 'Platform');
    expect(created).toHaveLength(1);
    expect(text).toContain(
      `Created sub account *Platform* (id ${created[0]?.accountId}), retention 30 days.`,
    );
    expect(text).toContain('its token is on the account page of the product');
    expect(text).not.toMatch(/fail|try again|ref:/i);
  });

  it.each(['standard', 'message', 'errorMessage', 'string'] as const)(
    "an error body in the %s shape: the service's words reach the sentence and the log",
    async (shape) => {
      harness.sim.faults.errorBodyShape = shape;
      const text = await run(harness, 'accounts create Nope someone@example.com');
      expect(text).toMatch(
        /^The agent service rejected the request: “email must belong to an admin user of the main account” — .*\(ref: ([0-9a-f]{8})\)\.$/,
      );
      const ref = /\(ref: ([0-9a-f]{8})\)/.exec(text)?.[1] ?? 'none';
      const logged = lines.find((line) => line.includes(ref));
      expect(logged).toContain('email must belong to an admin user of the main account');
    },
  );

  it('a server error quotes the service too', async () => {
    harness.sim.faults.errorBodyShape = 'string';
    harness.sim.faults.failListingsAfter = 0;
    const text = await run(harness, 'accounts');
    expect(text).toContain('(HTTP 500): “Simulated failure listing accounts”');
  });

  it('exports older-format hits losslessly', async () => {
    harness.sim.faults.legacyExport = true;
    const before = harness.slack.files().length;
    const text = await run(harness, 'export all');
    const files = harness.slack.files().slice(before);
    expect(files).toHaveLength(3);
    for (const file of files) {
      const type = file.name.split('-export-')[0] ?? '';
      const served = await fetch(`${harness.sim.url}/kibana/export`, {
        method: 'POST',
        headers: { 'x-api-token': SIM_TOKENS.agent, 'content-type': 'application/json' },
        body: JSON.stringify({ type }),
      }).then((response) => response.json());
      expect(JSON.parse(file.text)).toStrictEqual(served);
      expect(file.text).toContain('"_type":"doc"');
      expect(text).toContain(`${type}: 2 saved objects`);
    }
  });

  // The spec makes every member of these answers optional: what a person reads is a sentence
  // about what came back, never a schema rule, and never "the address is wrong".
  const NO_SCHEMA_DUMP = /expected|invalid input|undefined|couldn't understand|address or path is wrong/i;

  it('/agent whoami answered {} says the service named no account', async () => {
    harness.sim.faults.whoamiAnswersEmpty = true;
    const text = await run(harness, 'whoami');
    expect(text).toMatch(
      /^The agent service answered, but the identity check \(\/v2\/whoami\) came back without an account id or an account name — .*\(ref: [0-9a-f]{8}\)\.$/,
    );
    expect(text).not.toMatch(NO_SCHEMA_DUMP);
  });

  it('/agent accounts with a sharing entry without its id lists every account and names what is missing', async () => {
    harness.sim.faults.listingOmits = { accountId: 200002, members: ['sharingObjectsAccounts.accountId'] };
    const text = await run(harness, 'accounts');
    for (const account of harness.sim.accounts()) expect(text).toContain(account.accountName);
    expect(text).toContain('*Staging* (200002) came without the id of a sharing account in the listing');
    expect(text).toContain('it takes no part in a capacity move until the listing shows it whole');
    expect(text).not.toMatch(NO_SCHEMA_DUMP);
    // …and a move that would need Staging's update is refused before anything is written.
    const move = await run(harness, 'capacity move 1 from Production to Staging');
    expect(move).toContain('The listing shows Staging (200002) without the id of a sharing account');
    expect(move).toContain('Nothing was changed.');
    expect(harness.sim.putLog).toEqual([]);
  });

  it('/agent export answered {} says the export held no list of saved objects, and sends no file', async () => {
    harness.sim.faults.exportAnswersEmpty = true;
    const before = harness.slack.files().length;
    const text = await run(harness, 'export dashboard');
    expect(text).toMatch(
      /^The export failed:\n• dashboard: The agent service answered, but the dashboard export came back without a list of saved objects — .*\(ref: [0-9a-f]{8}\)\.$/,
    );
    expect(text).not.toMatch(NO_SCHEMA_DUMP);
    expect(harness.slack.files()).toHaveLength(before);
  });
});

describe('structured output', () => {
  let harness: Harness;
  afterAll(async () => harness?.stop());

  it('a done run whose message is a JSON object is answered with a JSON code block at once', async () => {
    harness = await startHarness({ env: { AGENT_ID: SIM_AGENTS.structured } });
    const started = Date.now();
    const { channel, threadTs } = await harness.mention(`status? ${simDirective({ steps: 1, stepMs: 50 })}`);
    const [answer] = await harness.waitForOutcome(channel, threadTs);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(answer?.metadata?.event_type).toBe('agent_answer');
    const text = harness.visibleText(answer ?? {});
    expect(text).toContain('```json');
    expect(text).toContain('"severity": "warning"');
    expect(text).toContain('"metric": "p95_latency_ms"');
    expect(text).not.toMatch(/couldn't understand|stopped waiting/);
  });
});

describe('feedback', () => {
  let harness: Harness;
  afterAll(async () => harness?.stop());

  it('a stored rating whose record comes back in a drifted format is not a failure', async () => {
    const logged: string[] = [];
    const capture = (message?: string) => {
      logged.push(message ?? '');
    };
    const recording: Logger = {
      debug: () => undefined,
      info: (_fields, message) => capture(message),
      warn: (_fields, message) => capture(message),
      error: (_fields, message) => capture(message),
      child: () => recording,
    };
    harness = await startHarness({ logger: recording });
    harness.sim.faults.feedbackRecordDrift = true;
    const { channel, threadTs } = await harness.mention(`rate me ${simDirective({ steps: 1, stepMs: 20 })}`);
    const [answer] = await harness.waitForOutcome(channel, threadTs);
    const sessionId = harness.sim.runs()[0]?.sessionId ?? '';
    await harness.react(channel, answer?.ts ?? '', '+1');
    await harness.slack.waitFor(
      () => logged.includes('feedback submitted') || logged.includes('feedback failed'),
      {
        description: 'the feedback outcome in the log',
      },
    );
    expect(logged).toContain('feedback submitted');
    expect(logged).not.toContain('feedback failed');
    expect(harness.sim.feedback(sessionId)?.score).toBe(100);
  });
});

describe('a 404 on a status poll', () => {
  let harness: Harness;
  afterAll(async () => harness?.stop());

  it('ends the turn at once with the agent named, instead of polling until the deadline', async () => {
    harness = await startHarness();
    const { channel, threadTs } = await harness.mention(`slow ${simDirective({ steps: 50, stepMs: 200 })}`);
    await harness.slack.waitFor(() => harness.sim.runs().length === 1, { description: 'the run started' });
    harness.sim.reset(); // the service forgets the session: its status answers 404
    const started = Date.now();
    const [notice] = await harness.waitForOutcome(channel, threadTs);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(harness.visibleText(notice ?? {})).toContain(
      `The agent service says the agent \`${SIM_AGENTS.api}\` is disabled or unknown`,
    );
  });
});
