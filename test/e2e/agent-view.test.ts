import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { DEFAULT_SUGGESTED_PROMPTS } from '../../src/config/load-config.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { appHomeOpenedEvent, messageEvent } from '../support/slack-events.js';

const DM = 'D0ALICE01';

/** Alice writes a new top-level message to the bot in its DM (the agent view's conversation). */
async function directMessage(harness: Harness, text: string, threadTs?: string) {
  const stored = harness.slack.recordUserMessage({ channel: DM, user: 'UALICE', text, thread_ts: threadTs });
  await harness.send(messageEvent({ channel: DM, user: 'UALICE', text, ts: stored.ts, thread_ts: threadTs }));
  return { ts: stored.ts, threadTs: threadTs ?? stored.ts };
}

describe('the agent view', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it("offers the manifest's suggested prompts when the Messages tab opens, not the Home tab", async () => {
    harness = await startHarness();
    const h = harness;
    await h.send(appHomeOpenedEvent({ channel: DM, tab: 'home' }));
    await h.send(appHomeOpenedEvent({ channel: DM, tab: 'messages' }));
    const prompts = await h.slack.waitFor(() => h.slack.suggestedPrompts(DM), {
      description: 'suggested prompts',
    });
    expect(prompts).toEqual(DEFAULT_SUGGESTED_PROMPTS);
    expect(h.slack.callCount('assistant.threads.setSuggestedPrompts')).toBe(1);
  });

  it('offers the configured prompts', async () => {
    const configured = [{ title: 'Disk', message: 'Which hosts are low on disk?' }];
    harness = await startHarness({ env: { SUGGESTED_PROMPTS: JSON.stringify(configured) } });
    const h = harness;
    await h.send(appHomeOpenedEvent({ channel: DM }));
    expect(await h.slack.waitFor(() => h.slack.suggestedPrompts(DM), { description: 'prompts' })).toEqual(
      configured,
    );
  });

  it('titles a new DM conversation after its first question, shortened, and only once', async () => {
    harness = await startHarness();
    const h = harness;
    const question =
      'Why did the checkout service start throwing timeouts against the payments database this morning?';
    const { threadTs } = await directMessage(
      h,
      `${question} ${simDirective({ steps: 1, stepMs: 20, answer: 'Locks.' })}`,
    );
    const title = await h.slack.waitFor(() => h.slack.threadTitle(DM, threadTs), {
      description: 'the title',
    });
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).toMatch(/^Why did the checkout service start throwing.*…$/);
    await h.waitForOutcome(DM, threadTs);
    await directMessage(h, `and now? ${simDirective({ steps: 1, stepMs: 20, answer: 'Fine.' })}`, threadTs);
    await h.waitForOutcome(DM, threadTs, 2);
    expect(h.slack.callCount('assistant.threads.setTitle')).toBe(1);
  });

  it('never shows a failure of the agent view to the person', async () => {
    harness = await startHarness();
    const h = harness;
    h.slack.failNext('assistant.threads.setTitle', 'not_allowed_token_type');
    h.slack.failNext('assistant.threads.setSuggestedPrompts', 'not_allowed_token_type');
    await h.send(appHomeOpenedEvent({ channel: DM }));
    const { threadTs } = await directMessage(
      h,
      `hello ${simDirective({ steps: 1, stepMs: 20, answer: 'Hi.' })}`,
    );
    const outcomes = await h.waitForOutcome(DM, threadTs);
    expect(outcomes.map((message) => message.metadata?.event_type)).toEqual(['agent_answer']);
    expect(h.slack.ephemerals(DM)).toEqual([]);
    expect(
      h.slack.calls
        .filter((call) => !call.ok)
        .map((call) => call.method)
        .sort(),
    ).toEqual(['assistant.threads.setSuggestedPrompts', 'assistant.threads.setTitle']);
  });
});
