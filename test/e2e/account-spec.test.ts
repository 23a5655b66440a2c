import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StoredResponse } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * The account commands end to end against a simulator that answers as the vendor's published
 * OpenAPI file does (DESIGN, "Checked against the vendor's OpenAPI file"): it refuses null
 * members, non-addresses and numbers past int32, serves the listing under /v1 without a
 * trailing slash, and may answer with incomplete rows, `{}` creations and Consumption-plan
 * accounts. Signed slash commands against the real app; assertions on what the simulator and
 * the Slack stand-in recorded.
 */

function readable(reply: StoredResponse): string {
  const blocks = reply.blocks?.map((block) => (block.text as { text?: string } | undefined)?.text ?? '');
  const text = blocks?.join('\n') ?? reply.text ?? '';
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Runs `/agent <text>` as the harness's admin and waits for its response_url reply. */
async function run(harness: Harness, text: string): Promise<string> {
  const posted = await harness.command(text);
  expect(posted.status).toBe(200);
  const replies = await harness.slack.waitFor(
    () => {
      const list = harness.slack.responses(posted.responseId);
      return list.length > 0 ? list : undefined;
    },
    { timeoutMs: 10_000, description: `the reply to /agent ${text}` },
  );
  return readable(replies[0] as StoredResponse);
}

const LISTING = '/account-management/time-based-accounts';

describe('account commands against the spec-strict service', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness();
  });
  afterAll(async () => harness?.stop());
  beforeEach(() => harness.sim.reset());

  const paths = () => harness.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

  it('moves capacity between accounts that list unset members as null: no null goes back', async () => {
    // QA Team lists reservedDailyGB, softLimitGB and snapSearchRetentionDays as null; the
    // simulator answers a PUT carrying any of them as null with 400, as the spec does.
    const text = await run(harness, 'capacity move 1 from "QA Team" to Staging');
    expect(text).toContain('Moved 1 GB of daily capacity from *QA Team* to *Staging*');
    expect(paths()).toEqual([
      `GET ${LISTING}/ 200`,
      `PUT ${LISTING}/200004 204`,
      `PUT ${LISTING}/200002 204`,
      `GET ${LISTING}/ 200`,
    ]);
    expect(JSON.stringify(harness.sim.putLog.map((put) => put.body))).not.toContain('null');
    const qa = harness.sim.accounts().find((a) => a.accountId === 200004);
    expect(qa).toMatchObject({ maxDailyGB: 7, reservedDailyGB: null, softLimitGB: null });
  });

  it('lists an incomplete row as far as it goes, and refuses to move its capacity', async () => {
    harness.sim.faults.listingOmits = {
      accountId: 200002,
      members: ['retentionDays', 'utilizationSettings.utilizationEnabled'],
    };
    const listed = await run(harness, 'accounts');
    expect(listed).toContain('*Accounts* (the main account and 4 sub accounts)');
    expect(listed).toMatch(/Staging\s+200002\s+20 GB\s+\?\s+searchable, doc-size\n/);
    expect(listed).toMatch(/Production\s+200001\s+50 GB\s+30 d/);
    expect(listed).toContain(
      ':grey_question: *Staging* (200002) came without retentionDays, utilizationSettings.utilizationEnabled in the listing',
    );
    const moved = await run(harness, 'capacity move 1 from Production to Staging');
    expect(moved).toContain(
      'The listing shows Staging (200002) without retentionDays, utilizationSettings.utilizationEnabled',
    );
    expect(moved).toContain('Nothing was changed.');
    expect(harness.sim.putLog).toEqual([]);
  });

  it('names a Consumption-plan account without a cap as such, and leaves it out of moves', async () => {
    harness.sim.faults.consumptionPlanAccount = 200002;
    const listed = await run(harness, 'accounts');
    expect(listed).toMatch(/Staging\s+200002\s+no daily cap\s+14 d/);
    expect(listed).toMatch(/Security\s+200003\s+uncapped\s+90 d/);
    expect(listed).toContain(
      'the main account, uncapped accounts and accounts with no daily cap (consumption plan) take no part',
    );
    const moved = await run(harness, 'capacity move 1 from Staging to Production');
    expect(moved).toContain(
      'Staging (200002) has no daily cap (consumption plan): it has no capacity to give or take',
    );
    expect(moved).not.toContain('uncapped (flexible');
    expect(harness.sim.putLog).toEqual([]);
  });

  it('takes a `{}` creation answer as a created account, asked once', async () => {
    harness.sim.faults.createAnswersEmpty = true;
    const text = await run(harness, 'accounts create Quiet admin@example.com');
    expect(text).toContain(
      'Created sub account *Quiet* — the service did not say its id: `/agent accounts` lists it, retention 7 days (the default).',
    );
    expect(text).toContain('its token is on the account page of the product');
    expect(text).not.toMatch(/fail|try again/i);
    expect(paths()).toEqual([`POST ${LISTING} 200`]);
    expect(harness.sim.accounts().filter((a) => a.accountName === 'Quiet')).toHaveLength(1);
  });

  it.each([
    ['accounts create Nope admin@example', '“admin@example” is not an email address'],
    ['accounts create Nope <mailto:admin@localhost|admin@localhost>', '“admin@localhost” is not an email'],
    [
      'accounts create Nope admin@example.com 2147483648',
      'retention-days 2147483648 is more than the service accepts (at most 2147483647)',
    ],
    [
      'accounts create Nope admin@example.com 7 2147483648',
      'max-daily-GB 2147483648 is more than the service accepts (at most 2147483647)',
    ],
    [
      'capacity move 2147483648 from Production to Staging',
      '2147483648 GB is more than the service accepts for a daily capacity',
    ],
  ])('%s: names the value and sends nothing', async (command, said) => {
    const text = await run(harness, command);
    expect(text).toContain(said);
    expect(harness.sim.requests).toEqual([]);
  });
});

describe('account commands with ACCOUNT_API_PATH_PREFIX=/v1', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({
      env: { ACCOUNT_API_PATH_PREFIX: '/v1' },
      sim: { accountPathPrefix: '/v1' },
    });
  });
  afterAll(async () => harness?.stop());
  beforeEach(() => harness.sim.reset());

  it('lists and moves at the spec’s paths: no trailing slash on the listing under /v1', async () => {
    const listed = await run(harness, 'accounts');
    expect(listed).toContain('*Accounts* (the main account and 4 sub accounts)');
    const moved = await run(harness, 'capacity move 2 from Production to "QA Team"');
    expect(moved).toContain('Moved 2 GB of daily capacity from *Production* to *QA Team*');
    expect(harness.sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /v1${LISTING} 200`,
      `GET /v1${LISTING} 200`,
      `PUT /v1${LISTING}/200001 204`,
      `PUT /v1${LISTING}/200004 204`,
      `GET /v1${LISTING} 200`,
    ]);
  });
});
