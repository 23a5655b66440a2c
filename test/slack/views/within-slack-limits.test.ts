import { describe, expect, it } from 'vitest';
import {
  messageBodyRefusal,
  mrkdwnEscapeProblem,
  responseActionRefusal,
  validateView,
} from '../../../dev/slack-standin/index.js';
import type { CommandOutcome } from '../../../src/commands/registry.js';
import type { ConnectionRow } from '../../../src/connections/connection-admin.js';
import type { AdminHome } from '../../../src/home/home-data.js';
import { renderCommandOutcome } from '../../../src/slack/views/commands/index.js';
import { renderAddAnswer, renderConnectionForm } from '../../../src/slack/views/connection-form.js';
import { renderHome } from '../../../src/slack/views/home-view.js';
import { reply } from '../../../src/slack/views/mrkdwn-reply.js';
import { renderPrivateQuote } from '../../../src/slack/views/private-answer.js';

/**
 * Issue 32: the views at their largest, with names made of mrkdwn's reserved characters,
 * backticks and emoji, held to the Slack stand-in's rules (the same ones every end-to-end test
 * meets): each is accepted, nothing is cut mid-row, and what does not fit is counted.
 */
const NASTY = ['<b>', 'a&b', '`tick`', '🚀 launch', '<!here>', 'x > y', '<@U0EVIL|boss>', '&amp;'];
const nasty = (i: number) => `${NASTY[i % NASTY.length]}-${i}`;
const channel = (i: number) => `C0CH${String(i).padStart(4, '0')}`;

const accepted = (body: object) => expect(messageBodyRefusal({ ...body })).toBeUndefined();

describe('/agent replies at the limits', () => {
  const rows: ConnectionRow[] = Array.from({ length: 35 }, (_, i) => ({
    alias: nasty(i),
    region: `https://api-${nasty(i)}.example.test/${'p'.repeat(60)}`,
    source: 'added',
    health: 'ok',
    accountId: 100_000 + i,
    accountName: `${nasty(i)} ${'account name '.repeat(5)}`,
  }));

  it('lists 35 connections in sections Slack takes (it broke at about 24)', () => {
    const reply = renderCommandOutcome({ kind: 'connections', rows });
    accepted(reply);
    expect(reply.blocks.length).toBeGreaterThan(2);
    const shown = reply.blocks.map((block) => block.text.text).join('\n');
    for (const i of [0, 17, 34]) expect(shown).toContain(`(id ${100_000 + i})`);
    expect(shown).toContain('&lt;agent-id&gt; on &lt;alias&gt;');
  });

  it('counts what passes Slack’s 50 blocks instead of sending a message Slack refuses', () => {
    const long = reply(Array.from({ length: 3_000 }, (_, i) => `• line ${i} ${'q'.repeat(50)}`).join('\n'));
    accepted(long);
    expect(long.blocks).toHaveLength(50);
    expect(long.blocks.at(-1)?.text.text).toMatch(/^_…and \d+ more sections, too long for one message_$/);
  });

  it('names at most 20 channels of a connection in use, and counts the rest', () => {
    const channels = Array.from({ length: 300 }, (_, i) => channel(i));
    const reply = renderCommandOutcome({
      kind: 'connection-remove',
      result: { outcome: 'in-use', alias: '<prod>&`x`', channels },
    });
    accepted(reply);
    expect(reply.text).toContain('and 280 more');
  });

  it.each<CommandOutcome>([
    {
      kind: 'channel-agent',
      channelId: 'C0GENERAL',
      agentId: '<agent>&`x`🚀',
      source: 'channel',
      boundBy: 'UADMIN',
    },
    { kind: 'channel-agent', channelId: 'C0GENERAL', agentId: '<!channel>', source: 'default' },
    {
      kind: 'channel-bound',
      channelId: 'C0GENERAL',
      agentId: '>'.repeat(500),
      previousAgentId: '&'.repeat(500),
      connection: '<alias>',
    },
    { kind: 'channel-missing', usage: '/agent channel use <agent-id> [on <alias>]' },
    { kind: 'connection-unknown', alias: '<nope>' },
  ])('a /agent channel or connection reply with odd ids is one Slack takes (%#)', (outcome) => {
    accepted(renderCommandOutcome(outcome));
  });
});

describe('the connection form’s answers', () => {
  const form = renderConnectionForm();

  it('shows an added connection with escaped names and no raw placeholder', () => {
    const answer = renderAddAnswer({
      ok: true,
      alias: 'eu-<prod>',
      accountId: 42,
      accountName: 'Acme <Ops> & `Co` 🚀',
      region: 'https://<eu>.example.test',
    });
    expect(validateView(form, ['modal'])).toMatchObject({ ok: true });
    expect(responseActionRefusal(JSON.stringify(answer), form)).toBeUndefined();
    expect(JSON.stringify(answer)).toContain('&lt;agent-id&gt;');
  });
});

describe('App Home for an admin with 35 of everything', () => {
  const admin: AdminHome = {
    connections: Array.from({ length: 35 }, (_, i) => ({
      alias: nasty(i),
      host: `api-${nasty(i)}.example.test`,
      account: { id: i, name: `${nasty(i)} ${'name '.repeat(20)}` },
      health: 'ok',
    })),
    agents: Array.from({ length: 35 }, (_, i) => ({
      agentId: `${nasty(i)}-${'agent'.repeat(10)}`,
      isDefault: i === 0,
      channels: Array.from({ length: 35 }, (_, j) => channel(i * 35 + j)),
      seen: { agentId: nasty(i), active: i % 2 === 0, source: 'run', at: 1_764_000_000_000 },
    })),
    channelAgents: Array.from({ length: 35 }, (_, i) => ({ channel: channel(i), agentId: nasty(i) })),
    watched: Array.from({ length: 35 }, (_, i) => channel(i)),
    week: { label: '2026-W48', runs: 1, answers: 1, 'answered-sessions': 1, 'rated-sessions': 0 },
  };
  const home = renderHome(
    { kind: 'member', prompts: [{ title: '<t>', message: 'a & b' }], threads: [], admin },
    { botUserId: 'UBOT' },
  );
  const sectionTexts = home.blocks.flatMap((block) =>
    block.type === 'section' && 'text' in block && block.text ? [block.text.text] : [],
  );

  it('is a Home tab Slack takes', () => {
    expect(validateView(home, ['home'])).toMatchObject({ ok: true });
  });

  it.each(['*Service connections*', '*Agents*', '*Channel agents*', '*Watched channels*'])(
    '%s keeps whole rows and ends with "…and N more"',
    (title) => {
      const text = sectionTexts.find((candidate) => candidate.startsWith(title)) ?? '';
      expect(text.length).toBeLessThanOrEqual(3_000);
      const lines = text.split('\n');
      expect(lines.at(-1)).toMatch(/^…and \d+ more$/);
      for (const line of lines.slice(1, -1)) expect(line).toMatch(/^• /);
    },
  );

  it('names at most five channels on an agent’s row', () => {
    const agents = sectionTexts.find((text) => text.startsWith('*Agents*')) ?? '';
    expect(agents).toContain('and 30 more');
  });
});

describe('the Slack Connect quote in the asker’s DM', () => {
  it('names the channel beside the link, never inside its label', () => {
    const quote = renderPrivateQuote({
      channel: 'C0SHARED',
      permalink: 'https://standin-workspace.slack.com/archives/C0SHARED/p1',
      question: 'why <is> checkout & `slow` 🚀?',
      reason: 'shared',
    });
    expect(mrkdwnEscapeProblem(quote.text)).toBeUndefined();
    expect(quote.text).toContain(
      'in <#C0SHARED> (<https://standin-workspace.slack.com/archives/C0SHARED/p1>):',
    );
    accepted(quote);
  });
});
