import { describe, expect, it } from 'vitest';
import { visibleText } from '../../../dev/slack-standin/index.js';
import type { AdminHome, PersonHome } from '../../../src/home/home-data.js';
import type { RecentThread } from '../../../src/home/home-ports.js';
import {
  coverageText,
  HOME_MAX_BLOCKS,
  OUTSIDER_HOME,
  renderHome,
  threadLink,
} from '../../../src/slack/views/home-view.js';

const OPTIONS = { url: 'https://acme.slack.com/', botUserId: 'UBOT' };
const T = Date.UTC(2026, 10, 25, 14, 5);
const thread = (n: number, overrides: Partial<RecentThread> = {}): RecentThread => ({
  threadKey: `T1:C1:170000000${n}.000100`,
  channel: 'C1',
  threadTs: `170000000${n}.000100`,
  title: `question ${n}`,
  status: 'answered',
  updatedAt: T,
  ...overrides,
});
const week = (overrides: Partial<AdminHome['week']> = {}): AdminHome['week'] => ({
  label: '2026-W48',
  runs: 0,
  answers: 0,
  'answered-sessions': 0,
  'rated-sessions': 0,
  ...overrides,
});
const admin = (overrides: Partial<AdminHome> = {}): AdminHome => ({
  connections: [{ alias: 'default', host: 'api.example', account: { id: 7, name: 'Prod' }, health: 'ok' }],
  agents: [{ agentId: 'a1', isDefault: true, channels: [] }],
  channelAgents: [],
  watched: undefined,
  week: week(),
  ...overrides,
});
const member = (overrides: Partial<Extract<PersonHome, { kind: 'member' }>> = {}): PersonHome => ({
  kind: 'member',
  prompts: [{ title: 'Errors?', message: 'Why are errors up?' }],
  threads: [],
  ...overrides,
});
const text = (home: PersonHome) => visibleText({ blocks: renderHome(home, OPTIONS).blocks as never });

describe('renderHome', () => {
  it('gives an outsider one sentence and nothing else', () => {
    expect(renderHome({ kind: 'outsider' }, OPTIONS)).toEqual({
      type: 'home',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: OUTSIDER_HOME } }],
    });
  });

  it.each<[string, PersonHome, string[], string[]]>([
    [
      'a new person',
      member(),
      ['Ask the agent', '<@UBOT>', '*Errors?* — Why are errors up?', 'Nothing yet'],
      ['For admins'],
    ],
    ['no prompts configured', member({ prompts: [] }), ['Ask the agent'], ['Try asking']],
    [
      'a person with threads',
      member({
        threads: [thread(1, { status: 'working' }), thread(2, { status: 'failed', title: undefined })],
      }),
      [
        '<https://acme.slack.com/archives/C1/p1700000001000100|question 1>',
        ':hourglass_flowing_sand: working · <#C1>',
        '|Your question>',
        ':warning: failed',
        '<!date^1795615500^{date_short_pretty} {time}|2026-11-25 14:05 UTC>',
      ],
      ['Nothing yet', 'For admins'],
    ],
    [
      'an admin',
      member({ admin: admin() }),
      [
        'For admins',
        '• `default` — account *Prod* (7) · api.example · :white_check_mark: healthy',
        '• `a1` (default) — :white_circle: not seen yet',
        '_none bound_',
        '*Watched channels*\n_not available in this version_',
        'Runs: *0* · Answers: *0* · Feedback coverage: *— (no answers yet)*',
      ],
      ['Answer channels'],
    ],
    [
      'an admin with bindings, watched channels and a broken connection',
      member({
        admin: admin({
          connections: [{ alias: 'default', host: 'api.example', health: 'token-rejected' }],
          agents: [
            {
              agentId: 'a1',
              isDefault: true,
              channels: [],
              seen: { agentId: 'a1', active: true, source: 'run', at: T },
            },
            {
              agentId: 'a2',
              isDefault: false,
              channels: ['C9'],
              seen: { agentId: 'a2', active: false, source: 'command', at: T },
            },
          ],
          channelAgents: [{ channel: 'C9', agentId: 'a2' }],
          watched: ['C7'],
          answerChannels: ['C5'],
          week: week({ runs: 5, answers: 4, 'answered-sessions': 4, 'rated-sessions': 1 }),
        }),
      }),
      [
        ':x: token rejected',
        '`a1` (default) — :large_green_circle: on (ran <!date^',
        '`a2` (<#C9>) — :red_circle: off (set by /agent <!date^',
        '• <#C9> → `a2`',
        '*Watched channels*\n• <#C7>',
        '*Answer channels*\n• <#C5>',
        'Runs: *5* · Answers: *4* · Feedback coverage: *25% (1 of 4 answered sessions rated)*',
      ],
      ['_none bound_'],
    ],
    [
      'connections that could not be listed',
      member({ admin: admin({ connections: undefined }) }),
      ['_could not be listed just now_'],
      [],
    ],
  ])('%s', (_name, home, shown, notShown) => {
    const rendered = text(home);
    for (const words of shown) expect(rendered).toContain(words);
    for (const words of notShown) expect(rendered).not.toContain(words);
  });

  it('stays within 100 blocks and 3,000 characters a section, listing 20 rows and counting the rest', () => {
    const many = Array.from({ length: 60 }, (_, n) => ({ channel: `C${n}`, agentId: `agent-${n}` }));
    const view = renderHome(
      member({
        threads: Array.from({ length: 10 }, (_, n) => thread(n)),
        admin: admin({ channelAgents: many }),
      }),
      OPTIONS,
    );
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
    for (const block of view.blocks) {
      const words = (block as { text?: { text?: string } }).text?.text ?? '';
      expect(words.length).toBeLessThanOrEqual(3_000);
    }
    const rendered = visibleText({ blocks: view.blocks as never });
    expect(rendered).toContain('…and 40 more');
    expect(rendered).not.toContain('agent-20`');
  });

  it('escapes what people and admins typed', () => {
    const rendered = text(member({ threads: [thread(1, { title: 'a <b> & c|d' })] }));
    expect(rendered).toContain('|a &lt;b&gt; &amp; c d>');
  });
});

describe('threadLink and coverageText', () => {
  it.each([
    [
      { channel: 'C1', threadTs: '1700000000.000100' },
      'https://x.slack.com',
      'https://x.slack.com/archives/C1/p1700000000000100',
    ],
    [{ channel: 'D1', threadTs: '1.2' }, undefined, 'https://slack.com/app_redirect?channel=D1'],
  ])('%o at %s → %s', (where, url, expected) => {
    expect(threadLink(where, url)).toBe(expected);
  });

  it.each([
    [week(), '— (no answers yet)'],
    [week({ 'answered-sessions': 3, 'rated-sessions': 1 }), '33% (1 of 3 answered sessions rated)'],
    // Ratings this week of last week's answers never make it more than all.
    [week({ 'answered-sessions': 2, 'rated-sessions': 5 }), '100% (2 of 2 answered sessions rated)'],
  ])('%o → %s', (tallies, expected) => {
    expect(coverageText(tallies)).toBe(expected);
  });
});
