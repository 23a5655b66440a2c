import { describe, expect, it } from 'vitest';
import { renderHomeText } from '../../dev/sandbox/render-home.js';
import { renderHome } from '../../src/slack/views/home-view.js';

describe('renderHomeText', () => {
  it('prints headers, rules, links, channel names and dates as a person reads them', () => {
    const view = renderHome(
      {
        kind: 'member',
        prompts: [],
        threads: [
          {
            threadKey: 'T:C0SANDBOX:1700000000.000100',
            channel: 'C0SANDBOX',
            threadTs: '1700000000.000100',
            title: 'why & how',
            status: 'answered',
            updatedAt: Date.UTC(2026, 10, 25, 9, 30),
          },
        ],
      },
      { url: 'https://acme.slack.com/', botUserId: 'UBOT' },
    );
    const text = renderHomeText(view.blocks as never, { C0SANDBOX: 'sandbox', UBOT: 'agent' });
    expect(text).toContain('    Ask the agent\n    ═════════════');
    expect(text).toContain('Mention @agent in a channel');
    expect(text).toContain(`    ${'─'.repeat(40)}`);
    expect(text).toContain(
      '    *why & how (https://acme.slack.com/archives/C0SANDBOX/p1700000000000100)*\n    :white_check_mark: answered · #sandbox · 2026-11-25 09:30 UTC',
    );
  });
});
