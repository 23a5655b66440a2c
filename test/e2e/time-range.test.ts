import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { alertMessage, visibleText } from '../../dev/slack-standin/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { windowText } from '../support/looked-at.js';

/** DESIGN "Time range" end to end: the phrase, the asker's zone (users.info tz), the alert window. */
const quick = (answer: string) => simDirective({ steps: 1, stepMs: 30, answer });
const CHANNEL = 'C0GENERAL';
const MINUTE = 60_000;

/** "HH:MM" of an instant in a zone, read with Intl (independently of the bot's own arithmetic). */
const localTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

async function askAndWait(harness: Harness, text: string, where: { threadTs?: string; user?: string } = {}) {
  const before = Date.now();
  const mention = await harness.mention(text, where);
  await harness.waitForOutcome(CHANNEL, mention.threadTs);
  const after = Date.now();
  const run = harness.sim.runs().at(-1);
  return { mention, before, after, timerange: run?.contexts.at(-1)?.timerange, prompt: run?.prompts.at(-1) };
}

describe('time range', () => {
  let harness: Harness;
  afterEach(async () => harness?.stop());

  it('"in the last 2 hours" becomes the two hours up to now, and the footer states it in UTC', async () => {
    harness = await startHarness();
    const { timerange, before, after, prompt, mention } = await askAndWait(
      harness,
      `errors in the last 2 hours? ${quick('Few.')}`,
    );
    const start = Date.parse(timerange?.startTime ?? '');
    const end = Date.parse(timerange?.endTime ?? '');
    expect(end - start).toBe(120 * MINUTE);
    expect(end).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(end).toBeLessThanOrEqual(after);
    expect(prompt).toContain('in the last 2 hours'); // the phrase stays in the message
    const answer = harness.slack
      .messages(CHANNEL, mention.threadTs)
      .find((message) => message.metadata?.event_type === 'agent_answer');
    expect(visibleText(answer as never)).toContain(
      `Looked at ${windowText(timerange?.startTime ?? '', timerange?.endTime ?? '')}`,
    );
  });

  it('"since 9:00" is 9:00 in the asker\'s zone (America/New_York), its most recent past occurrence', async () => {
    harness = await startHarness();
    const { timerange, after } = await askAndWait(harness, `anything odd since 9:00? ${quick('No.')}`);
    const start = timerange?.startTime ?? '';
    expect(localTime(start, 'America/New_York')).toBe('09:00');
    expect(Date.parse(start)).toBeLessThanOrEqual(after);
    expect(after - Date.parse(start)).toBeLessThan(24 * 60 * MINUTE);
    // The same words from someone in Berlin mean another instant.
    const berlin = await askAndWait(harness, `anything odd since 9:00? ${quick('No.')}`, { user: 'UBOB' });
    expect(localTime(berlin.timerange?.startTime ?? '', 'Europe/Berlin')).toBe('09:00');
  });

  it("under someone else's root without a phrase: the root's time minus ALERT_LOOKBACK_MINUTES to now", async () => {
    harness = await startHarness({ env: { ALERT_LOOKBACK_MINUTES: '30' } });
    const rootTs = `${Math.floor(Date.now() / 1000) - 600}.000100`; // the alert fired 10 minutes ago
    harness.slack.recordBotMessage({ ...alertMessage(CHANNEL, 'Errors up'), ts: rootTs });
    const { timerange, after } = await askAndWait(harness, `why? ${quick('Deploy.')}`, { threadTs: rootTs });
    expect(timerange?.startTime).toBe(
      new Date((Number(rootTs.split('.')[0]) - 30 * 60) * 1000).toISOString().replace('.000Z', 'Z'),
    );
    expect(Date.parse(timerange?.endTime ?? '')).toBeLessThanOrEqual(after);
    expect(after - Date.parse(timerange?.endTime ?? '')).toBeLessThan(MINUTE);
    // A phrase wins over the alert window (another alert, a new session).
    const other = harness.slack.recordBotMessage(alertMessage(CHANNEL, 'Errors up again'));
    const phrased = await askAndWait(harness, `in the last 5 minutes? ${quick('Calm.')}`, {
      threadTs: other.ts,
    });
    const span =
      Date.parse(phrased.timerange?.endTime ?? '') - Date.parse(phrased.timerange?.startTime ?? '');
    expect(span).toBe(5 * MINUTE);
  });

  it('a plain top-level question gets no time range; a question under your own message neither', async () => {
    harness = await startHarness();
    const top = await askAndWait(harness, `how are we? ${quick('Fine.')}`);
    expect(top.timerange).toBeUndefined();
    const own = harness.slack.recordUserMessage({ channel: CHANNEL, user: 'UALICE', text: 'deploying now' });
    const under = await askAndWait(harness, `did it work? ${quick('Yes.')}`, { threadTs: own.ts });
    expect(under.timerange).toBeUndefined();
  });

  it.each([
    ['reversed', 'from 5pm to 3pm', 'ends before it starts'],
    ['in the future', 'in 3 hours', 'in the future'],
    ['longer than 31 days', 'in the last 90 days', 'longer than 31 days'],
  ])('a %s range is refused with a sentence, and the thread is not stuck', async (_name, phrase, words) => {
    harness = await startHarness();
    const mention = await harness.mention(`errors ${phrase}? ${quick('Never.')}`);
    const [refusal] = await harness.slack.waitFor(
      () => {
        const list = harness.slack.ephemerals(CHANNEL, 'UALICE');
        return list.length > 0 ? list : undefined;
      },
      { description: 'the refusal' },
    );
    expect(refusal?.text).toContain(words);
    expect(harness.sim.runs()).toHaveLength(0);
    // The same thread takes the next question at once.
    const again = await harness.mention(`errors today? ${quick('Some.')}`, { threadTs: mention.threadTs });
    await harness.waitForOutcome(CHANNEL, again.threadTs);
    expect(harness.sim.runs()).toHaveLength(1);
  });

  it('nonsense is no time phrase: the run goes without a range', async () => {
    harness = await startHarness();
    const { timerange } = await askAndWait(harness, `since the blorp of the flux? ${quick('Hm.')}`);
    expect(timerange).toBeUndefined();
  });
});
