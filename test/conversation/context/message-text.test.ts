import { describe, expect, it } from 'vitest';
import { toAgentPrompt } from '../../../src/conversation/context/message-text.js';

const BOT = 'UBOT';
const lookups = {
  userName: (id: string) => ({ U123: 'alice' })[id],
  channelName: (id: string) => ({ C9: 'random' })[id],
};

describe('toAgentPrompt', () => {
  it.each([
    ['leading mention', '<@UBOT> why are logs missing?', 'why are logs missing?'],
    ['leading mention with a colon', '<@UBOT>: check ingest', 'check ingest'],
    ['labelled mention with a comma', '<@UBOT|agent>, check ingest', 'check ingest'],
    ['mention in the middle', 'hey <@UBOT> check ingest', 'hey check ingest'],
    ['mention in the middle with a comma', 'thanks <@UBOT>, and now?', 'thanks, and now?'],
    ['trailing mention', 'check ingest <@UBOT>', 'check ingest'],
    ['only a mention', '<@UBOT>', ''],
    ['mention on its own line', '<@UBOT>\nline one\n\nline two', 'line one\n\nline two'],
    ['surrounding whitespace', '  <@UBOT>   hi  \n', 'hi'],
    ['another user', 'ask <@U999> about it', 'ask @U999 about it'],
    ['another user with a label', '<@UBOT> ask <@U999|bob>', 'ask @bob'],
    ['channel with a name', 'in <#C1|ops>', 'in #ops'],
    ['channel without a name', 'in <#C1>', 'in #C1'],
    ['labelled link', 'see <https://x.example/a|the runbook>', 'see the runbook (https://x.example/a)'],
    ['bare link', 'see <https://x.example/a>', 'see https://x.example/a'],
    ['auto-linked host', 'see <http://example.com|example.com>', 'see example.com'],
    ['mail link', 'mail <mailto:a@b.example|a@b.example>', 'mail a@b.example'],
    ['bare mail link', '<mailto:a@b.example>', 'a@b.example'],
    ['mail link with a name', '<mailto:a@b.example|Alice>', 'Alice (a@b.example)'],
    ['here', '<!here> look', '@here look'],
    ['channel broadcast with a label', '<!channel|channel>', '@channel'],
    ['everyone', '<!everyone>', '@everyone'],
    ['user group', '<!subteam^S1|@oncall> please', '@oncall please'],
    ['date', '<!date^1392734382^{date}|Feb 18, 2014>', 'Feb 18, 2014'],
    ['entities', 'a &lt; b &amp;&amp; c &gt; d', 'a < b && c > d'],
    ['entities decoded once', '&amp;lt;', '&lt;'],
    ['escaped brackets stay text', '&lt;@U1&gt;', '<@U1>'],
    [
      'code keeps its indentation',
      '<@UBOT> run\n```\n  indented\n\tx\n```',
      'run\n```\n  indented\n\tx\n```',
    ],
  ])('%s', (_name, text, expected) => {
    expect(toAgentPrompt(text, BOT)).toBe(expected);
  });

  it.each([
    ['user by lookup', '<@U123> says hi', '@alice says hi'],
    ['user without a known name', '<@U404> says hi', '@U404 says hi'],
    ['label wins over lookup', '<@U123|al>', '@al'],
    ['channel by lookup', 'see <#C9>', 'see #random'],
  ])('with lookups: %s', (_name, text, expected) => {
    expect(toAgentPrompt(text, BOT, lookups)).toBe(expected);
  });
});
