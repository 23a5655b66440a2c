import { describe, expect, it } from 'vitest';
import { renderAlertCard, renderFiredAgain } from '../../../src/slack/views/alert-card.js';

describe('renderAlertCard', () => {
  const card = {
    title: 'CPU <!channel> high',
    severity: 'HIGH',
    description: 'see <https://evil.example|docs> & more',
    windowStart: Date.UTC(2026, 10, 25, 10),
    windowEnd: Date.UTC(2026, 10, 25, 10, 15),
    tags: ['env:prod', 'a`b'],
    exploreUrl: 'https://app.logz.io#/view-in-explore?&triggeredId=1&switchToAccountId=2',
  };

  it('escapes what the alert says, so it cannot ping or hide a link', () => {
    const view = renderAlertCard(card, 'UBOT');
    // The header is plain_text, which Slack shows as typed: no mention, no link.
    const [header, ...rest] = view.blocks;
    expect(header).toEqual({ type: 'header', text: { type: 'plain_text', text: 'CPU <!channel> high' } });
    const json = JSON.stringify({ ...view, blocks: rest });
    expect(json).not.toContain('<!channel>');
    expect(json).not.toContain('<https://evil.example|docs>');
    expect(json).toContain('&lt;https://evil.example|docs&gt; &amp; more');
    expect(view.text).toContain('CPU &lt;!channel&gt; high (HIGH)');
  });

  it('shows severity, the window in UTC, tags, the Explore button and what happens next', () => {
    const view = renderAlertCard(card, 'UBOT');
    const json = JSON.stringify(view.blocks);
    expect(json).toContain('2026-11-25 10:00 – 10:15 UTC');
    expect(json).toContain('`env:prod`');
    expect(json).toContain("`a'b`");
    expect(json).toContain('"url":"https://app.logz.io#/view-in-explore?&triggeredId=1&switchToAccountId=2"');
    expect(json).toContain('Investigating in this thread');
    expect(view.metadata).toEqual({ event_type: 'agent_alert', event_payload: { investigated: true } });
  });

  it.each([
    [{ kind: 'hourly-limit', limit: 20 } as const, 'mention <@UBOT> in this thread'],
    [{ kind: 'outsiders', policy: 'dm' } as const, 'the answer comes to you in a direct message'],
    [{ kind: 'outsiders', policy: 'refuse' } as const, 'Ask <@UBOT> about it in a direct message'],
  ])('says why an alert is not investigated and how to ask (%j)', (reason, how) => {
    const view = renderAlertCard({ ...card, exploreUrl: undefined, notInvestigated: reason }, 'UBOT');
    expect(view.text).toContain('Not investigated automatically');
    expect(view.text).toContain(how);
    expect(JSON.stringify(view.blocks)).not.toContain('"type":"actions"');
  });

  it('says when the alert fired again, in UTC', () => {
    expect(renderFiredAgain('Disk full', Date.UTC(2026, 10, 25, 13, 7)).text).toContain(
      'fired again at 13:07 UTC',
    );
  });
});
