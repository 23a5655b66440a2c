import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/bridge-harness.js';
import { agentCommandReply } from '../support/command-reply.js';
import { homeTabOpenedEvent } from '../support/slack-events.js';

/**
 * Issue 32 end to end: an admin's App Home with 35 channel agents (long ids: 20 rows pass 3,000) and
 * 35 watched channels is a view the strict stand-in publishes, every list ending "…and N more"
 * instead of a row cut mid-way; odd ids typed into `/agent channel use` are answered in text
 * Slack takes.
 */
const COUNT = 35;
const channel = (i: number) => `C0LIMIT${String(i).padStart(2, '0')}`;

describe('App Home at the limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  it('shows 35 channel agents and 35 watched channels within Slack’s limits', async () => {
    for (let i = 0; i < COUNT; i += 1) {
      await agentCommandReply(h, `channel use agent-${'x'.repeat(110)}-${i}`, 'UADMIN', channel(i));
      await agentCommandReply(h, 'channel investigate on', 'UADMIN', channel(i));
    }
    const before = h.slack.homePublishes('UADMIN');
    await h.send(homeTabOpenedEvent({ user: 'UADMIN' }));
    await h.slack.waitFor(() => h.slack.homePublishes('UADMIN') > before, { description: 'the admin home' });
    const sections = (h.slack.homeOf('UADMIN')?.blocks ?? []).flatMap((block) =>
      block.type === 'section' ? [(block.text as { text: string }).text] : [],
    );
    for (const title of ['*Agents*', '*Channel agents*', '*Watched channels*']) {
      const text = sections.find((section) => section.startsWith(title)) ?? '';
      expect(text.length).toBeLessThanOrEqual(3_000);
      expect(text.split('\n').at(-1)).toMatch(/^…and \d+ more$/);
    }
    expect(h.slack.refusals()).toEqual([]);
  });

  it('answers odd ids made of <, >, &, backticks and emoji in text Slack takes', async () => {
    const reply = await agentCommandReply(h, 'channel use <b>&`x`🚀', 'UADMIN', channel(0));
    expect(reply).toContain('is not an agent id');
    expect(h.slack.refusals()).toEqual([]);
  });
});
